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
headers=(simcore/include/{poplar,popops,poplin,popnn,poputil,poprand,gcl}/*.hpp
         simcore/popart/include/popart/*.hpp
         instrumentation/include/pvti/*.hpp reportfmt/include/pva/*.hpp)
if [ ${#headers[@]} -eq 0 ]; then
    echo "check-public-headers: no headers found; run from the source root" >&2
    exit 2
fi
# One compile per header and standard, run $(nproc) at a time: about 1,200 compiles in all.
check_one() {
    std=$1 h=$2
    rel=${h#*/include/}
    if err=$(echo "#include <$rel>" |
        "$cxx" -std="$std" -fsyntax-only -Wall -Wextra -Werror "${includes[@]}" -x c++ - 2>&1); then
        return 0
    fi
    first=$(echo "$err" | grep -m1 -E 'error|warning' | sed 's/^<stdin>[^ ]* //' | cut -c1-200)
    echo "  $std $rel: ${first:-$err}"
}
export -f check_one
export cxx
export INCLUDES_LIST="${includes[*]}"
total=$((${#stds[@]} * ${#headers[@]}))
failures=$(for std in "${stds[@]}"; do
    for h in "${headers[@]}"; do
        printf '%s %s\n' "$std" "$h"
    done
done | xargs -P "$(nproc)" -n 2 bash -c 'includes=($INCLUDES_LIST); check_one "$0" "$1"')
failed=0
if [ -n "$failures" ]; then
    echo "$failures"
    failed=$(echo "$failures" | wc -l)
fi
echo "public headers: $((total - failed))/$total compile alone under ${stds[*]} -Wall -Wextra -Werror"
[ $failed -eq 0 ]
