#!/bin/bash
# Runs prog (codelets from popc's codelets.gp) and compares its output with expected.txt.
export TILESCOPE_CODELET_CACHE="$PWD/.codelet-cache"
if ! ./prog > actual.txt 2>&1; then
    echo "prog failed:"; cat actual.txt; exit 1
fi
if ! diff -u expected.txt actual.txt; then
    echo "popc_codelets: the output differs from expected.txt (diff above)"; exit 1
fi
# popc's own contract: --version, usage errors exit 2, compile errors name the file and line.
popc --version | grep -q popc || { echo "popc --version printed no version"; exit 1; }
popc --no-such-option codelets.cpp -o x.gp > /dev/null 2>&1
[ $? -eq 2 ] || { echo "popc accepted an unknown option (expected exit 2)"; exit 1; }
printf '#include <poplar/Vertex.hpp>\nclass B : public poplar::Vertex {\n  bool compute() { return nope; }\n};\n' > broken.cpp
out=$(popc broken.cpp -o broken.gp 2>&1); rc=$?
[ $rc -eq 1 ] || { echo "popc on a broken codelet exited $rc, expected 1"; exit 1; }
echo "$out" | grep -q 'broken.cpp:3' || { echo "popc's error does not name broken.cpp:3:"; echo "$out"; exit 1; }
exit 0
