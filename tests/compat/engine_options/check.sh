# Runs the program on one simulated IPU with an autoReport, then checks its printed values, the
# files the debugging options wrote, and what the report says about the options and the runs.
fail() {
  echo "engine_options: $1"
  [ -n "${out-}" ] && echo "the program printed:" && echo "$out"
  exit 1
}
# Simulated IPUs are claimed with locks in this folder, so concurrent tests never share them.
export TILESCOPE_DEVICE_LOCK_DIR="$PWD/ipu-locks"
rm -rf out && mkdir out
# An empty POPLAR_ENGINE_OPTIONS (as shells often export it) counts as unset.
out=$(TILESCOPE_SIMULATED_IPUS=1 POPLAR_ENGINE_OPTIONS= ./prog out 2>&1) ||
  fail "the program failed with an empty POPLAR_ENGINE_OPTIONS"
rm -rf out && mkdir out
out=$(TILESCOPE_SIMULATED_IPUS=1 \
  POPLAR_ENGINE_OPTIONS='{"autoReport.all":"true","autoReport.directory":"out/report"}' \
  ./prog out 2>&1) || fail "the program failed"
grep -qxF 'tiles: 8' <<<"$out" || fail "expected a virtual device of 8 tiles"
grep -qxF 'x: 0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60' <<<"$out" ||
  fail "x is not 0..15 doubled twice"
grep -q '^replica 1 refused: .*not replicated' <<<"$out" ||
  fail "connecting replica 1 was not refused with index_error naming replication"

# target.saveArchive: an ar archive of the compiled graph's description.
members=$(ar t out/archive.a) || fail "target.saveArchive wrote no readable archive"
for m in graph.json memory.json variables.json; do
  grep -qxF "$m" <<<"$members" || fail "the archive lacks $m (it has: $members)"
done
# debug.loweredVarDumpFile: each variable with its tile, address and size.
grep -q '"name": "x"' out/vars.json || fail "vars.json does not list x"
grep -q '"address"' out/vars.json || fail "vars.json has no addresses"

report=out/report/profile.pop
[ -f "$report" ] || fail "no report at $report"
q() { sqlite3 "$report" "$1"; }
[ "$(q "SELECT applies FROM engine_option WHERE name='debug.outputAllSymbols'")" = 0 ] ||
  fail "debug.outputAllSymbols is not recorded as not applying"
[ "$(q "SELECT applies FROM engine_option WHERE name='exchange.streamBufferOverlap'")" = 0 ] ||
  fail "exchange.streamBufferOverlap is not recorded as not applying"
[ "$(q "SELECT applies FROM engine_option WHERE name='target.saveArchive'")" = 1 ] ||
  fail "target.saveArchive is not recorded as applying"
[ "$(q 'SELECT type FROM target')" = "IPU (simulated)" ] ||
  fail "the report does not record a simulated IPU as the target"
# Execution profiling was off for the first run: one run is recorded.
[ "$(q 'SELECT count(*) FROM run')" = 1 ] || fail "expected exactly one profiled run"
echo "engine_options: ok"
