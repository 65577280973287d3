#!/usr/bin/env bash
# install-prefix.sh CMAKE BUILD_DIR PREFIX: install the SDK part of BUILD_DIR into a fresh PREFIX
# (the compat tests' fixture). The old prefix is removed first so that nothing left from an earlier
# build can make a test pass.
set -euo pipefail
if (($# != 3)); then
  echo "usage: install-prefix.sh CMAKE BUILD_DIR PREFIX" >&2
  exit 2
fi
cmake=$1 build=$2 prefix=$3
rm -rf -- "$prefix"
log=$(mktemp)
trap 'rm -f -- "$log"' EXIT
if ! "$cmake" --install "$build" --prefix "$prefix" --component sdk >"$log" 2>&1; then
  cat -- "$log"
  echo "install-prefix: cmake --install $build --prefix $prefix --component sdk failed" >&2
  exit 1
fi
for f in enable.sh include/poplar/Graph.hpp; do
  if [[ ! -e $prefix/$f ]]; then
    echo "install-prefix: $prefix/$f is missing after the install" >&2
    exit 1
  fi
done
echo "installed into $prefix"
