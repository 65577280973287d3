#!/bin/bash
# Runs the program and compares every printed result with the values computed on the host
# (expected.txt: x and y as in main.cpp, worked out by hand).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
out="$(./prog)" || { echo "poplibs_misc: prog exited with status $?"; exit 1; }
# popops::topK first, by name, so a top-k regression is reported as such.
for line in "top_2: 3 1.5 4 2.5" "bottom_3_indices: 1 3 0 3 0 2" "y_at_max_x: -2 5"; do
    if ! printf '%s\n' "$out" | grep -qxF "$line"; then
        echo "poplibs_misc: popops::topK results: expected the line '$line', got:"
        printf '%s\n' "$out" | grep -E '^(top_2|bottom_3|max_x|y_at_max_x)' || echo "(none)"
        exit 1
    fi
done
if ! diff <(printf '%s\n' "$out") "$here/expected.txt"; then
    echo "poplibs_misc: printed results differ from expected.txt (< got, > expected)"
    exit 1
fi
echo "poplibs_misc: all results as expected"
