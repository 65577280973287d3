#!/bin/bash
# Runs the CMake-built sorter (find_package(poplibs)) and compares what it prints with
# expected.txt (the sorts worked out by hand from the inputs in main.cpp).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
out="$(./build/sorter)" || { echo "popops_sort: ./build/sorter exited with status $?"; exit 1; }
if ! diff <(printf '%s\n' "$out") "$here/expected.txt"; then
    echo "popops_sort: printed results differ from expected.txt (< got, > expected)"
    exit 1
fi
echo "popops_sort: all results as expected"
