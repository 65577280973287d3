#!/bin/sh
# Regenerates simcore/CALIBRATION.md from the calibration cases (tests/calibration): builds the
# generator in BUILD_DIR (default: build) and writes its output over the committed file.
# Usage: scripts/update_calibration.sh [BUILD_DIR]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-"$root/build"}
cmake --build "$build" --target simcore_calibration
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$build/tests/calibration/simcore_calibration" > "$out"
mv "$out" "$root/simcore/CALIBRATION.md"
trap - EXIT
echo "wrote $root/simcore/CALIBRATION.md"
