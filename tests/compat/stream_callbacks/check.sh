#!/bin/bash
# Runs the program and compares what it prints with expected.txt: results computed from the
# fed batches, and the order of the input stream's prefetch / fetch / complete calls.
set -u
./stream_callbacks > actual.txt 2> stderr.txt
status=$?
if [ $status -ne 0 ]; then
  echo "stream_callbacks exited with $status:"
  cat stderr.txt
  exit 1
fi
if ! diff -u expected.txt actual.txt; then
  echo "stream_callbacks printed something else than expected.txt (diff above)"
  exit 1
fi
echo "stream_callbacks: output as expected"
