#!/usr/bin/env bash
# check-enable.sh PREFIX LIBDIR PYTHONDIR: PREFIX/enable.sh, sourced in bash and in zsh (when zsh
# is installed) from another directory and twice, prints nothing and puts the prefix's directories
# first in each variable exactly once, keeping the entries that were there.
set -euo pipefail
if (($# != 3)); then
  echo "usage: check-enable.sh PREFIX LIBDIR PYTHONDIR" >&2
  exit 2
fi
prefix=$(cd -- "$1" && pwd -P)
lib=$prefix/$2
python=$prefix/$3
expected="PATH=$prefix/bin:/usr/bin:/bin
CPATH=$prefix/include:/opt/other/include
LIBRARY_PATH=$lib
LD_LIBRARY_PATH=$lib:/opt/other/lib
CMAKE_PREFIX_PATH=$prefix
PKG_CONFIG_PATH=$lib/pkgconfig
PYTHONPATH=$python
POPLAR_SDK_ENABLED=$prefix"

# The script each shell runs: a clean environment with some unrelated entries, enable.sh sourced
# twice by a relative path from /tmp, then the variables printed. Anything printed by the sourcing
# itself lands before the variables and makes the comparison fail.
script='cd / && cd tmp
source "$1" && source "$1"
for v in PATH CPATH LIBRARY_PATH LD_LIBRARY_PATH CMAKE_PREFIX_PATH PKG_CONFIG_PATH PYTHONPATH POPLAR_SDK_ENABLED; do
  eval "echo $v=\${$v-}"
done'
relative=..$prefix/enable.sh

failed=0
shells=(bash)
if command -v zsh >/dev/null; then
  shells+=(zsh)
else
  echo "check-enable: zsh is not installed; checking bash only"
fi
for shell in "${shells[@]}"; do
  actual=$(env -i HOME="$HOME" PATH=/usr/bin:/bin CPATH=/opt/other/include \
    LD_LIBRARY_PATH=/opt/other/lib "$(command -v "$shell")" -c "$script" "$shell" "$relative" 2>&1)
  if [[ $actual != "$expected" ]]; then
    echo "check-enable: $shell: sourcing $relative twice from /tmp gave:"
    diff <(echo "$expected") <(echo "$actual") || true
    failed=1
  fi
done
exit "$failed"
