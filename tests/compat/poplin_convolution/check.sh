#!/bin/bash
# Runs the program and compares every printed result with the values worked out by hand
# (expected.txt): block sums of 0..15 plus the bias 100, a gradient of ones reaching every input
# once, the weight deltas (the inputs each kernel element meets), 2x2 max and average pooling,
# and the mean 7.5 and 1 / sqrt(21.25) of 0..15.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
out="$(./prog)" || { echo "poplin_convolution: prog exited with status $?"; exit 1; }
if ! diff <(printf '%s\n' "$out") "$here/expected.txt"; then
    echo "poplin_convolution: printed results differ from expected.txt (< got, > expected)"
    exit 1
fi
echo "poplin_convolution: all results as expected"
