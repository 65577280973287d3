#!/bin/bash
# Runs prog (which compiles its own main.cpp as codelets) and compares with expected.txt.
export TILESCOPE_CODELET_CACHE="$PWD/.codelet-cache"
if ! ./prog > actual.txt 2>&1; then
    echo "prog failed:"; cat actual.txt; exit 1
fi
if ! diff -u expected.txt actual.txt; then
    echo "single_file_codelets: the output differs from expected.txt (diff above)"; exit 1
fi
exit 0
