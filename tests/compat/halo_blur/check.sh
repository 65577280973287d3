#!/bin/bash
# Runs the row blur and compares the printed rows, checks and half round trip with expected.txt.
export TILESCOPE_CODELET_CACHE="$PWD/.codelet-cache"
if ! ./prog > actual.txt 2>&1; then
    echo "halo_blur: prog failed:"; cat actual.txt; exit 1
fi
if ! diff -u expected.txt actual.txt; then
    echo "halo_blur: the output differs from expected.txt (diff above)"; exit 1
fi
[ -s computegraph.dot ] || { echo "halo_blur: computegraph.dot is missing or empty"; exit 1; }
exit 0
