# A hardware program on TILESCOPE_SIMULATED_IPUS=4: it finds 4 IPUs, attaches the first free one
# and computes. With IPU 0 held by another process it attaches IPU 1. Unset, it finds none and
# the hint names the variable; an invalid value is an error naming it.
export TILESCOPE_DEVICE_LOCK_DIR="$PWD/ipu-locks"
fail=0

expect_lines() { # name, output, expected lines...
  local name=$1 output=$2
  shift 2
  for line in "$@"; do
    if ! grep -qxF -- "$line" <<<"$output"; then
      echo "simulated_ipu ($name): expected the line '$line', the program printed:"
      echo "$output"
      fail=1
    fi
  done
}

out=$(TILESCOPE_SIMULATED_IPUS=4 ./prog 2>&1)
expect_lines "4 IPUs" "$out" 'Found 4 single-IPU devices' 'Attached to IPU 0' \
  'Target: 1 IPU, 1472 tiles, ipu2' 'Result: 1.5 2.5 3.5 4.5 15 26 37 48'

# Another process holds IPU 0 (flock on its lock file, as TileScope's attach does).
mkdir -p "$TILESCOPE_DEVICE_LOCK_DIR"
exec 9>"$TILESCOPE_DEVICE_LOCK_DIR/ipu0.lock"
flock -n 9 || { echo "simulated_ipu: could not take the IPU 0 lock for the test"; exit 1; }
out=$(TILESCOPE_SIMULATED_IPUS=4 ./prog 2>&1)
expect_lines "IPU 0 held elsewhere" "$out" 'Attached to IPU 1' 'Result: 1.5 2.5 3.5 4.5 15 26 37 48'
exec 9>&-

out=$(env -u TILESCOPE_SIMULATED_IPUS ./prog 2>&1)
status=$?
expect_lines "unset" "$out" 'Found 0 single-IPU devices' 'Error attaching to device'
if [ "$status" -ne 1 ] || ! grep -q 'TILESCOPE_SIMULATED_IPUS=N' <<<"$out"; then
  echo "simulated_ipu (unset): expected exit status 1 and a hint naming TILESCOPE_SIMULATED_IPUS, got $status:"
  echo "$out"
  fail=1
fi

out=$(TILESCOPE_SIMULATED_IPUS=3 ./prog 2>&1)
if ! grep -qF "TILESCOPE_SIMULATED_IPUS='3' is not valid" <<<"$out"; then
  echo "simulated_ipu (invalid value 3): expected an error naming the variable, the program printed:"
  echo "$out"
  fail=1
fi
exit $fail
