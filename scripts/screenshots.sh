#!/usr/bin/env bash
# Regenerates every screenshot the README shows (resources/screenshots/*.png) from the demo
# programs, so that the gallery shows today's app. Each image is made by one `shot NAME ...` line
# below; tests/layout/check_screenshots.py fails when the README names an image no line makes.
#
#   scripts/screenshots.sh [OUT_DIR]          # default resources/screenshots
#
# Needs a configured build (TILESCOPE_BUILD_DIR, default build) with the app, the CLI and the
# example programs built, and xvfb-run. Captures go to TILESCOPE_SCREENSHOT_WORK (default
# demo/screenshot-captures) and are reused when present (delete the folder to capture again).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${TILESCOPE_BUILD_DIR:-build}
OUT=${1:-resources/screenshots}
WORK=${TILESCOPE_SCREENSHOT_WORK:-demo/screenshot-captures}
SIZE=${TILESCOPE_SCREENSHOT_SIZE:-1600x1000}
GUI="$BUILD_DIR/app/gui/tilescope"
CLI="$BUILD_DIR/app/cli/tilescope-cli"
EXAMPLES="$BUILD_DIR/simcore/examples"

for tool in "$GUI" "$CLI" "$EXAMPLES/transformer_block" "$EXAMPLES/matmul_chain" \
    "$EXAMPLES/mlp_training" "$EXAMPLES/lightweight_profiling" \
    "$BUILD_DIR/tests/capture/heatmap_trace_program"; do
    if [[ ! -x "$tool" ]]; then
        echo "screenshots.sh: $tool is not built (build tilescope, tilescope-cli, the" \
            "simcore examples and heatmap_trace_program first)" >&2
        exit 1
    fi
done
command -v xvfb-run > /dev/null || { echo "screenshots.sh: xvfb-run is not installed" >&2; exit 1; }
mkdir -p "$OUT" "$WORK"
OUT=$(cd "$OUT" && pwd)
WORK=$(cd "$WORK" && pwd)
ROOT=$PWD

# capture DIR OPTIONS_JSON PROGRAM [ARGS...]: runs a program once with autoReport into DIR/report
# (and its host trace there) unless DIR already holds a report.
capture() {
    local dir=$1 options=$2
    shift 2
    [[ -f "$dir/report/profile.pop" ]] && return 0
    rm -rf "$dir" && mkdir -p "$dir"
    echo "capturing $(basename "$1") into $dir"
    (cd "$dir" && POPLAR_ENGINE_OPTIONS="$options" "$@" > program-output.txt)
}

# shot NAME TILESCOPE_ARGS...: renders one view to OUT/NAME.png.
shot() {
    local name=$1
    shift
    echo "shot $name"
    xvfb-run -a "$ROOT/$GUI" "$@" --screenshot "$OUT/$name.png" --size "$SIZE"
}

AUTO='"autoReport.all":"true","autoReport.directory":"./report"'
# The demo: the HALF transformer encoder block of scripts/demo.sh (1,472 tiles, sequence 256,
# d_model 512, 8 heads, feed-forward 2048), and the same block with a 1024-wide feed-forward layer
# as the source of the comparison.
capture "$WORK/transformer" "{$AUTO,\"profiler.includeFlopEstimates\":\"true\"}" \
    "$ROOT/$EXAMPLES/transformer_block"
capture "$WORK/transformer-ff1024" "{$AUTO,\"profiler.includeFlopEstimates\":\"true\"}" \
    "$ROOT/$EXAMPLES/transformer_block" 1472 256 512 8 1024
# The Debug information pane on a matMul; lightweight-profiling blocks; the joint timeline with
# every program in a block and stream copies recorded.
capture "$WORK/matmul-chain" "{$AUTO}" "$ROOT/$EXAMPLES/matmul_chain"
capture "$WORK/blocks" "{}" env TILESCOPE_SIMULATED_IPUS=2 \
    TILESCOPE_DEVICE_LOCK_DIR="$WORK/ipu-locks" "$ROOT/$EXAMPLES/lightweight_profiling" \
    "$ROOT/simcore/examples/codelets/profiling_codelets.cpp" ./report
capture "$WORK/mlp-blocks" \
    "{$AUTO,\"profiler.programs.filter\":\".*\",\"debug.instrumentExternalExchange\":\"true\"}" \
    "$ROOT/$EXAMPLES/mlp_training"
if ! ls "$WORK/heatmap/"*.pvti > /dev/null 2>&1; then
    mkdir -p "$WORK/heatmap"
    (cd "$WORK/heatmap" && PVTI_OPTIONS='{"enable":"true","directory":"."}' \
        "$ROOT/$BUILD_DIR/tests/capture/heatmap_trace_program")
fi

REPORT="$WORK/transformer/report/profile.pop"
TRACES=("$WORK/transformer/report/"*.pvti)
SOURCE="$WORK/transformer-ff1024/report/profile.pop"

# The single-report views.
for view in summary insights memory liveness programs operations execution; do
    shot "$view" --view "$view" "$REPORT"
done
shot memory-physical --tile-order physical "$REPORT"
shot liveness-without-always-live --always-live exclude "$REPORT"
shot memory-compute-sets --memory-tab compute-sets "$REPORT"
shot memory-variables-graph --memory-tab variables-graph "$REPORT"
shot memory-map --memory-tab map "$REPORT"
shot operations-graph --view operations-graph "$REPORT"
shot execution-phases --execution-mode flat "$REPORT"
# A range of a fifth of the first run from its middle, summed in the range panel.
CYCLES=$("$CLI" sql --format csv "$REPORT" "SELECT total_cycles FROM run ORDER BY id LIMIT 1" |
    tail -1 | tr -d '\r')
shot execution-range --execution-mode flame --cycle-range "$((CYCLES * 2 / 5)):$((CYCLES * 3 / 5))" \
    "$REPORT"
shot execution-blocks --execution-mode blocks "$WORK/blocks/report/profile.pop"
shot debug-info --view operations "$WORK/matmul-chain/report/profile.pop"

# Comparison: the 1024-wide block (source) beside the demo (target).
for view in summary memory liveness programs operations execution; do
    shot "compare-$view" --compare --view "$view" "$SOURCE" "$REPORT"
done

# The system analyser: host timeline, call tree, threads merged per process.
shot timeline --view timeline "${TRACES[@]}"
shot calltree --view calltree "${TRACES[@]}"
shot timeline-flame-per-process --view timeline --flame process "${TRACES[@]}"
# Two traces compared by event name: the 1024-wide block's (A, the baseline) and the demo's (B).
SOURCE_TRACES=("$WORK/transformer-ff1024/report/"*.pvti)
shot compare-traces --compare-trace "${SOURCE_TRACES[0]}" "${TRACES[0]}"
# The joint view, zoomed on the first engine run (from just before its host call to past its
# device time).
TRACE_START=$("$CLI" sql --format csv "${TRACES[0]}" "SELECT min(start_ns) FROM event_block" |
    tail -1 | tr -d '\r')
IFS=, read -r RUN_START RUN_NS < <("$CLI" sql --format csv "$REPORT" \
    "SELECT r.host_start_ns, CAST(r.total_cycles * 1e9 / t.clock_hz AS INTEGER)
     FROM run r, target t ORDER BY r.id LIMIT 1" | tail -1 | tr -d '\r')
FROM=$((RUN_START - TRACE_START - RUN_NS / 20))
((FROM < 0)) && FROM=0
TO=$((RUN_START - TRACE_START + RUN_NS + RUN_NS / 5))
shot joint-timeline --view timeline --range "${FROM}ns:${TO}ns" "${TRACES[@]}" "$REPORT"
shot joint-timeline-blocks --view timeline "$WORK/mlp-blocks/report/"*.pvti \
    "$WORK/mlp-blocks/report/profile.pop"
shot timeline-heatmap --view timeline "$WORK/heatmap/"*.pvti
echo "screenshots written to $OUT"
