# SDK behaviours on TILESCOPE_SIMULATED_IPUS=2: std::optional through the SDK headers (C++17),
# constants given in addVertex's list for Input fields, timing between two time stamps, and
# acquireAvailableDevice taking the first free IPU (IPU 1 while another process holds IPU 0, an
# error naming the count when both are held).
export TILESCOPE_DEVICE_LOCK_DIR="$PWD/ipu-locks"
export TILESCOPE_SIMULATED_IPUS=2
fail=0

expect() { # name, output, extended regular expression a whole line must match
  if ! grep -qxE -- "$3" <<<"$2"; then
    echo "sdk_behaviours ($1): expected a line matching '$3', the program printed:"
    echo "$2"
    fail=1
  fi
}

out=$(./prog 2>&1)
expect "free IPUs" "$out" 'Acquired device 0'
expect "constants" "$out" 'Result: 2.5 6 9.5 13'
expect "timing" "$out" 'Device: [1-9][0-9]* cycles \([0-9.]+ us at 1330\.000 MHz\), host: [0-9.]+ ms'

mkdir -p "$TILESCOPE_DEVICE_LOCK_DIR"
exec 8>"$TILESCOPE_DEVICE_LOCK_DIR/ipu0.lock"
flock -n 8 || { echo "sdk_behaviours: could not take the IPU 0 lock for the test"; exit 1; }
out=$(./prog 2>&1)
expect "IPU 0 held" "$out" 'Acquired device 1'
exec 9>"$TILESCOPE_DEVICE_LOCK_DIR/ipu1.lock"
flock -n 9 || { echo "sdk_behaviours: could not take the IPU 1 lock for the test"; exit 1; }
out=$(./prog 2>&1)
status=$?
expect "all held" "$out" 'No device: .*all 2 devices of 1 IPU\(s\) are in use'
[ "$status" -eq 1 ] || { echo "sdk_behaviours (all held): expected exit status 1, got $status"; fail=1; }
exec 8>&- 9>&-
out=$(./prog 4 2>&1)
expect "too many IPUs" "$out" 'No device: .*no device of 4 IPU\(s\).*'
exit $fail
