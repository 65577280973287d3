#!/usr/bin/env bash
# The main job: set-up, build, capture a report from an example program, show it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
BUILD_DIR=${TILESCOPE_BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$BUILD_DIR" -j"$(nproc)"
CLI="$BUILD_DIR/app/cli/tilescope-cli"
GUI="$BUILD_DIR/app/gui/tilescope"

# Capture: an ordinary Poplar-style program (a transformer encoder block in HALF - Q/K/V
# projections, attention, softmax, MLP - built from PopLibs calls over the 1,472 tiles of a
# simulated Mk2 IPU), profiled by setting one variable.
rm -rf demo && mkdir -p demo
(cd demo && POPLAR_ENGINE_OPTIONS='{"autoReport.all":"true","autoReport.directory":"./report","profiler.includeFlopEstimates":"true"}' \
    "../$BUILD_DIR/simcore/examples/transformer_block" > program-output.txt)
REPORT=demo/report/profile.pop
"$CLI" summary "$REPORT"
"$CLI" info demo/report/*.pvti

# Show it: the desktop app when there is a display, PNGs of its views otherwise.
if [[ -x "$GUI" ]]; then
    if [[ -n "${DISPLAY:-}" && -z "${CI:-}" ]]; then
        exec "$GUI" "$REPORT"
    fi
    mkdir -p demo/screenshots
    for view in summary insights memory liveness programs operations execution; do
        xvfb-run -a "$GUI" --view "$view" --screenshot "demo/screenshots/$view.png" \
            --size 1600x1000 "$REPORT"
    done
    # Memory per tile in physical order: tiles as they sit on the simulated die.
    xvfb-run -a "$GUI" --tile-order physical --screenshot demo/screenshots/memory-physical.png \
        --size 1600x1000 "$REPORT"
    # The system analyser: the program's host timeline (compile phases, engine runs, stream copies).
    for view in timeline calltree; do
        xvfb-run -a "$GUI" --view "$view" --screenshot "demo/screenshots/$view.png" \
            --size 1600x1000 demo/report/*.pvti
    done
    # The joint view: the host timeline with the report's device steps on the same axis, zoomed
    # on the first engine run (from just before its host call starts to past its device time).
    TRACE_START=$("$CLI" sql --format csv demo/report/*.pvti "SELECT min(start_ns) FROM event_block" | tail -1 | tr -d "\r")
    IFS=, read -r RUN_START RUN_NS < <("$CLI" sql --format csv "$REPORT" \
        "SELECT r.host_start_ns, CAST(r.total_cycles * 1e9 / t.clock_hz AS INTEGER)
         FROM run r, target t ORDER BY r.id LIMIT 1" | tail -1 | tr -d "\r")
    FROM=$(( RUN_START - TRACE_START - RUN_NS / 20 )); (( FROM < 0 )) && FROM=0
    TO=$(( RUN_START - TRACE_START + RUN_NS + RUN_NS / 5 ))
    xvfb-run -a "$GUI" --view timeline --range "${FROM}ns:${TO}ns" \
        --screenshot demo/screenshots/joint-timeline.png --size 1600x1000 \
        demo/report/*.pvti "$REPORT"
    # Lightweight profiling: a pipelined program on two simulated IPUs with Block programs,
    # shown in the Execution Trace's Blocks mode.
    (cd demo && TILESCOPE_SIMULATED_IPUS=2 TILESCOPE_DEVICE_LOCK_DIR="$PWD/ipu-locks" \
        "../$BUILD_DIR/simcore/examples/lightweight_profiling" \
        ../simcore/examples/codelets/profiling_codelets.cpp ./blocks-report > blocks-output.txt)
    xvfb-run -a "$GUI" --execution-mode blocks --screenshot demo/screenshots/execution-blocks.png \
        --size 1600x1000 demo/blocks-report/profile.pop
    echo "No display: the app's views were rendered to demo/screenshots/*.png"
fi
