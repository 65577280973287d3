#!/usr/bin/env bash
# The main job: set-up, build, produce a report, show it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
BUILD_DIR=${TILESCOPE_BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$BUILD_DIR" -j"$(nproc)"
CLI="$BUILD_DIR/app/cli/tilescope-cli"

# Until the capture layer writes reports from real programs, the demo report is synthetic: a
# one-IPU Mk2 program with 20,000 steps, two runs and a host trace of 100,000 events.
"$CLI" synth demo --ipus 1 --tiles-per-ipu 1472 --steps 20000 --runs 2 --host-events 100000
"$CLI" info demo/profile.pop
"$CLI" summary demo/profile.pop
"$CLI" info demo/host.pvti
echo
echo "The report is demo/profile.pop (query it with: $CLI sql demo/profile.pop 'SELECT ...')."
echo "The desktop app that opens it is not built yet (see the open issues)."
