# The writer squares x twice and leaves report/profile.pop; the reader, linked with -lpva alone,
# opens it and prints what it holds.
set -u
fail() {
  echo "pva_reader: $*"
  exit 1
}
rm -rf report
written=$(POPLAR_ENGINE_OPTIONS='{"autoReport.all":"true","autoReport.directory":"./report"}' \
  ./writer) || fail "./writer failed"
[[ $written == "x: 1 16 81 256 625 1296 2401 4096" ]] ||
  fail "the writer printed '$written', expected 'x: 1 16 81 256 625 1296 2401 4096'"
[[ -f report/profile.pop ]] || fail "the writer left no report/profile.pop"

# The reader must not need anything but libpva (and what it pulls in itself).
if ! ldd ./reader | grep -q 'libtilescope-report'; then
  fail "reader is not linked with the report library: $(ldd ./reader)"
fi
if ldd ./reader | grep -q 'libpoplar'; then
  fail "reader links libpoplar although it was linked with -lpva only"
fi

actual=$(./reader report/profile.pop) || fail "./reader failed"
expected='tiles: 4
tiles per IPU: 4
compute sets: 1
runs: 2'
[[ $actual == "$expected" ]] || fail "the reader printed
$actual
expected
$expected"
