#!/bin/bash
# Runs the program and compares every printed result with the values computed on the host
# (expected.txt: x and y as in main.cpp, worked out by hand).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
out="$(./prog)" || { echo "poplibs_misc: prog exited with status $?"; exit 1; }
if ! diff <(printf '%s\n' "$out") "$here/expected.txt"; then
    echo "poplibs_misc: printed results differ from expected.txt (< got, > expected)"
    exit 1
fi
echo "poplibs_misc: all results as expected"
