#!/bin/bash
# Runs the stencil on the IPU model (3 and 4 iterations) and on a simulated IPU (1 iteration) and
# compares the printed grid values with expected.txt; then builds a Clang-only codelet with popc.
# Simulated IPUs are claimed with locks in this folder, so concurrent tests never share them.
export TILESCOPE_DEVICE_LOCK_DIR="$PWD/ipu-locks"
export TILESCOPE_CODELET_CACHE="$PWD/.codelet-cache"
{
    ./prog && ./prog model-ipu2 4 && TILESCOPE_SIMULATED_IPUS=2 ./prog ipu 1
} > actual.txt 2>&1 || { echo "grid_smoothing: prog failed:"; cat actual.txt; exit 1; }
if ! diff -u expected.txt actual.txt; then
    echo "grid_smoothing: the output differs from expected.txt (diff above)"; exit 1
fi
# ext_vector_type is Clang's: the default codelet compiler refuses it with a hint naming the
# feature and TILESCOPE_CODELET_CXX; with Clang it builds.
out=$(TILESCOPE_CODELET_CXX=g++ popc vector_pairs.cpp -o pairs.gp 2>&1) && {
    echo "grid_smoothing: g++ built an ext_vector_type codelet"; exit 1; }
echo "$out" | grep -q 'TILESCOPE_CODELET_CXX=clang++' || {
    echo "grid_smoothing: popc's error has no hint about Clang:"; echo "$out"; exit 1; }
if command -v clang++ > /dev/null; then
    TILESCOPE_CODELET_CXX=clang++ popc vector_pairs.cpp -o pairs.gp || {
        echo "grid_smoothing: popc with Clang failed on vector_pairs.cpp"; exit 1; }
fi
exit 0
