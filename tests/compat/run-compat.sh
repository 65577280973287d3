#!/usr/bin/env bash
# run-compat.sh FOLDER PREFIX SCRATCH: build and check one compatibility program as an SDK user
# would: copy FOLDER to a fresh SCRATCH directory, `source PREFIX/enable.sh` in a clean
# environment, build with `make` (if there is a Makefile) or `cmake -S . -B build && cmake --build
# build`, then run `bash check.sh` there. Exits non-zero with the build output when the build fails,
# and with check.sh's status when the check fails.
set -euo pipefail
if (($# != 3)); then
  echo "usage: run-compat.sh FOLDER PREFIX SCRATCH" >&2
  exit 2
fi
folder=$(cd -- "$1" && pwd)
prefix=$2
scratch=$3
name=$(basename -- "$folder")

if [[ ! -f $prefix/enable.sh ]]; then
  echo "compat $name: $prefix/enable.sh not found (is the 'compat: install' fixture run?)" >&2
  exit 1
fi

rm -rf -- "$scratch"
mkdir -p -- "$scratch"
cp -a -- "$folder/." "$scratch/"
cd -- "$scratch"

# Only what enable.sh sets up may point at TileScope: drop every search path the caller (ctest, a
# developer's shell) may carry, so that nothing from the source or build tree leaks in.
unset CPATH C_INCLUDE_PATH CPLUS_INCLUDE_PATH LIBRARY_PATH LD_LIBRARY_PATH CMAKE_PREFIX_PATH \
  PKG_CONFIG_PATH PYTHONPATH POPLAR_SDK_ENABLED CXXFLAGS CPPFLAGS LDFLAGS MAKEFLAGS MFLAGS \
  CMAKE_GENERATOR CMAKE_TOOLCHAIN_FILE
# shellcheck disable=SC1091
source "$prefix/enable.sh"

build_log=$scratch/build.log
if [[ -f Makefile ]]; then
  build=(make)
  status=0
  make >"$build_log" 2>&1 || status=$?
else
  build=(cmake -S . -B build '&&' cmake --build build)
  status=0
  { cmake -S . -B build && cmake --build build; } >"$build_log" 2>&1 || status=$?
fi
if ((status != 0)); then
  cat -- "$build_log"
  echo "compat $name: build failed (${build[*]}, exit $status) in $scratch" >&2
  exit 1
fi

status=0
bash check.sh || status=$?
if ((status != 0)); then
  echo "compat $name: check.sh failed (exit $status) in $scratch" >&2
  exit "$status"
fi
echo "compat $name: ok"
