#!/bin/bash
# Runs the program and compares what it prints with expected.txt (counters, masks and
# accumulated products worked out by hand from the values in main.cpp).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
out="$(./prog)" || { echo "loop_counters: prog exited with status $?"; exit 1; }
if ! diff <(printf '%s\n' "$out") "$here/expected.txt"; then
    echo "loop_counters: printed results differ from expected.txt (< got, > expected)"
    exit 1
fi
echo "loop_counters: all results as expected"
