#!/usr/bin/env bash
# check-deb.sh BUILD SCRATCH PYTHON: cpack -G DEB from BUILD into SCRATCH, extract the package
# into SCRATCH/root, and run what a user would from it: the CLI on a report, the SDK's enable.sh,
# and `import pva, libpvti`. Checks the desktop entry, icon and MIME types are in the package and
# that it depends on Debian packages only.
set -euo pipefail
build=$1
scratch=$2
python=$3
fail() {
  echo "package: $*" >&2
  exit 1
}
rm -rf -- "$scratch"
mkdir -p -- "$scratch"
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$scratch/out" >"$scratch/cpack.log" 2>&1 ||
  { cat "$scratch/cpack.log"; fail "cpack -G DEB failed"; }
debs=("$scratch"/out/*.deb)
((${#debs[@]} == 1)) && [[ -f ${debs[0]} ]] || fail "expected one .deb in $scratch/out, found: ${debs[*]}"
deb=${debs[0]}

depends=$(dpkg-deb -f "$deb" Depends)
[[ -n $depends ]] || fail "the package declares no dependencies"
while IFS= read -r dep; do
  name=${dep%% *}
  [[ -z $name ]] && continue
  dpkg-query -W "$name" >/dev/null 2>&1 || apt-cache show "$name" >/dev/null 2>&1 ||
    fail "dependency '$name' is not a Debian package known here"
done < <(tr ',' '\n' <<<"$depends" | sed 's/^ *//; s/|.*//')

root=$scratch/root
dpkg-deb -x "$deb" "$root"
prefix=$root/opt/tilescope
for f in bin/tilescope bin/tilescope-cli bin/popc enable.sh include/poplar/Graph.hpp include/pva/pva.hpp \
  share/applications/tilescope.desktop share/mime/packages/tilescope.xml \
  share/icons/hicolor/scalable/apps/tilescope.svg; do
  [[ -e $prefix/$f ]] || fail "$f is not in the package"
done
ls "$prefix"/lib/python/pva.*.so >/dev/null 2>&1 || fail "the pva module is not in the package"
[[ -f $prefix/lib/python/libpvti/__init__.py ]] || fail "the libpvti module is not in the package"
dpkg-deb -e "$deb" "$scratch/control"
grep -q 'update-mime-database' "$scratch/control/postinst" || fail "postinst does not register the MIME types"

# The CLI from the extracted tree, on a report the package's own Python module can read too.
env -i PATH=/usr/bin:/bin "$prefix/bin/tilescope-cli" --help >/dev/null || fail "tilescope-cli --help failed"
env -i PATH=/usr/bin:/bin "$prefix/bin/tilescope-cli" synth "$scratch/synth" --ipus 1 --tiles-per-ipu 4 \
  --steps 10 >/dev/null || fail "tilescope-cli synth failed"
env -i PATH=/usr/bin:/bin "$prefix/bin/tilescope-cli" info "$scratch/synth/profile.pop" >/dev/null ||
  fail "tilescope-cli info failed"
tiles=$(env -i PATH=/usr/bin:/bin bash -c "source '$prefix/enable.sh' && '$python' -c \"
import pva, libpvti
print(pva.openReport('$scratch/synth/profile.pop').compilation.target.numTiles)\"") ||
  fail "import pva, libpvti from the extracted package failed"
[[ $tiles == 4 ]] || fail "pva read $tiles tiles from the synthetic report, expected 4"
echo "package: $(basename "$deb") ok ($depends)"
