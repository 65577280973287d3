#!/usr/bin/env bash
# Compiles each public header of the SDK-compatible faces on its own, as a user's Makefile would:
# $CXX -std=STD -fsyntax-only -Wall -Wextra -Werror, for every standard given (default c++11).
# Users build SDK programs and codelets as C++11 and later, so these headers may use nothing newer.
# Headers are found by glob, so a new header is checked without editing this script.
# Usage (from the source root): tests/install/check-public-headers.sh [STD...]
# Prints one line per failing header and standard (its first diagnostic) and a summary line;
# exits non-zero when any header fails.
set -u
cxx=${CXX:-g++}
stds=("$@")
[ ${#stds[@]} -gt 0 ] || stds=(c++11)
includes=(-Isimcore/include -Isimcore/popart/include -Iinstrumentation/include -Ireportfmt/include)
shopt -s nullglob
headers=(simcore/include/{poplar,popops,poplin,popnn,poputil,poprand}/*.hpp
         simcore/popart/include/popart/*.hpp
         instrumentation/include/pvti/*.hpp reportfmt/include/pva/*.hpp)
if [ ${#headers[@]} -eq 0 ]; then
    echo "check-public-headers: no headers found; run from the source root" >&2
    exit 2
fi
total=0
failed=0
for std in "${stds[@]}"; do
    for h in "${headers[@]}"; do
        total=$((total + 1))
        rel=${h#*/include/}
        if err=$(echo "#include <$rel>" |
            "$cxx" -std="$std" -fsyntax-only -Wall -Wextra -Werror "${includes[@]}" -x c++ - 2>&1); then
            continue
        fi
        failed=$((failed + 1))
        first=$(echo "$err" | grep -m1 -E 'error|warning' | sed 's/^<stdin>[^ ]* //' | cut -c1-200)
        echo "  $std $rel: ${first:-$err}"
    done
done
echo "public headers: $((total - failed))/$total compile alone under ${stds[*]} -Wall -Wextra -Werror"
[ $failed -eq 0 ]
