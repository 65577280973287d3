# `import pva, libpvti` after `source enable.sh`, then a PopVision-style script over the report
# of a C++ program, and both programs' tracepoints read back with pva.openTrace.
set -u
fail() {
  echo "python_faces: $*"
  exit 1
}
python3 -c "import pva, libpvti" || fail "python3 -c 'import pva, libpvti' failed (PYTHONPATH=${PYTHONPATH-})"

rm -rf report trace
written=$(POPLAR_ENGINE_OPTIONS='{"autoReport.all":"true","autoReport.directory":"./report"}' \
  PVTI_OPTIONS='{"enable":"true","directory":"./trace"}' ./prog) || fail "./prog failed"
[[ $written == "x: 1 16 81 256 625 1296 2401 4096" ]] || fail "./prog printed '$written'"

actual=$(PVTI_OPTIONS='{"enable":"true","directory":"./trace"}' python3 analyse.py report/profile.pop) ||
  fail "analyse.py failed"
expected='tiles: 4 per IPU: 4
programs: Sequence Sequence, OnTileExecute square
vertices: 4
run 0: square=True
run 1: square=True'
[[ $actual == "$expected" ]] || fail "analyse.py printed
$actual
expected
$expected"

shopt -s nullglob
files=(trace/*.pvti)
((${#files[@]} == 2)) || fail "expected two trace/*.pvti files (C++ and Python process), found: ${files[*]:-none}"
events=$(python3 - "${files[@]}" <<'PY'
import sys
import pva

OURS = ("cpp", "python")  # the engine's own tracepoints (channel "engine") are left out

def walk(event, depth):
    yield "  " * depth + f"{event.channel} {event.label}"
    for child in event.children():
        if child.channel in OURS:
            yield from walk(child, depth + 1)

lines = []
for path in sys.argv[1:]:
    for process in pva.openTrace(path).processes:
        for thread in process.threads:
            for event in thread.events:
                if event.channel in OURS:
                    lines.extend(walk(event, 0))
print("\n".join(sorted(lines)))
PY
) || fail "reading the traces with pva.openTrace failed"
expected_events='  python done
cpp run
python analyse'
[[ $events == "$expected_events" ]] || fail "trace events differ: expected
$expected_events
got
$events"
