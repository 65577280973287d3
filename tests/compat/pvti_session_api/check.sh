# The C++ session API's answers, then the trace read back with pva.openTrace: only the events of
# enabled channels before closeTrace are there.
set -u
fail() {
  echo "pvti_session_api: $*"
  exit 1
}
rm -rf trace
actual=$(PVTI_OPTIONS='{"enable":"true","directory":"./trace"}' ./prog) || fail "./prog failed"
shopt -s nullglob
files=(trace/*.pvti)
((${#files[@]} == 1)) || fail "expected one trace/*.pvti file, found: ${files[*]:-none}"
expected="session while disabled: 0
channels: Drivers=1 Poplar=1 Framework=1 session=1 quiet=1
file: ./trace/$(basename "${files[0]}")
session after close: 0"
[[ $actual == "$expected" ]] || fail "the program printed
$actual
expected
$expected"

events=$(python3 - "${files[0]}" <<'PY'
import sys
import pva

for process in pva.openTrace(sys.argv[1]).processes:
    for thread in process.threads:
        for event in thread.events:
            print(event.channel, event.label)
PY
) || fail "reading ${files[0]} with pva.openTrace failed"
expected_events='quiet quiet on
session session on
Drivers drivers'
[[ $events == "$expected_events" ]] || fail "trace events differ: expected
$expected_events
got
$events"

# Tracing off: the same answers, with nothing recorded and no file.
rm -rf trace
off=$(./prog) || fail "./prog failed without PVTI_OPTIONS"
expected_off='session while disabled: 0
channels: Drivers=0 Poplar=0 Framework=0 session=0 quiet=0
file: 
session after close: 0'
[[ $off == "$expected_off" ]] || fail "without PVTI_OPTIONS the program printed
$off
expected
$expected_off"
[[ ! -e trace ]] || fail "a trace directory was written without PVTI_OPTIONS"
