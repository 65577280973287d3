#!/bin/sh
# Lays simcore/src and python/src out by stage (issue 30) as scripts/simcore-layout.map says:
# moves files still at their old places with git mv and rewrites the #include lines and CMake
# source lists that name them. Re-run it after merging a branch written before the move; a second
# run changes nothing.
set -e
here=$(cd "$(dirname "$0")" && pwd)
exec python3 "$here/layout_map.py" "$here/simcore-layout.map" "$(dirname "$here")"
