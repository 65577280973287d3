#!/bin/bash
# Runs the program and compares what it prints with expected.txt: the remote buffer's rows after
# the device moved them, the rows loaded through two offsets, the reshaping copy and the error
# type for a repeat out of range.
set -u
./remote_buffers > actual.txt 2> stderr.txt
status=$?
if [ $status -ne 0 ]; then
  echo "remote_buffers exited with $status:"
  cat stderr.txt
  exit 1
fi
if ! diff -u expected.txt actual.txt; then
  echo "remote_buffers printed something else than expected.txt (diff above)"
  exit 1
fi
echo "remote_buffers: output as expected"
