# The program prints its result and, with PVTI_OPTIONS, writes one *.pvti file (SQLite, format in
# the README) holding the tracepoints and the series.
set -u
fail() {
  echo "pvti_tracepoints: $*"
  exit 1
}
rm -rf trace
actual=$(PVTI_OPTIONS='{"enable":"true","directory":"./trace"}' ./prog) || fail "./prog failed"
[[ $actual == "total: 175" ]] || fail "expected 'total: 175', the program printed: $actual"

shopt -s nullglob
files=(trace/*.pvti)
((${#files[@]} == 1)) || fail "expected one trace/*.pvti file, found: ${files[*]:-none}"

# Events of the channel "compat" in time order: name, depth and kind (0 interval, 1 instant).
# Format v4 packs a track's events into event_block blobs (layout in the README); decoded here
# independently of the library.
events=$(python3 - "${files[0]}" <<'PY'
import sqlite3, sys
db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
names = dict(db.execute("SELECT id, text FROM name"))
channels = {c: names[n] for c, n in db.execute("SELECT id, name_id FROM channel")}
def varints(data, pos):
    while True:
        value, shift = 0, 0
        while True:
            byte = data[pos]; pos += 1
            value |= (byte & 0x7F) << shift; shift += 7
            if byte < 0x80: break
        yield value
unzig = lambda v: (v >> 1) ^ -(v & 1)
rows = []
for depth, events, data in db.execute("SELECT depth, events, data FROM event_block"):
    assert data[0] == 1, "v4 writer blocks have implicit ids"
    values = varints(data, 1)
    assert next(values) == events
    start = 0
    for _ in range(events):
        start += unzig(next(values))
        code = next(values)
        if code == 3: next(values)
        name, channel = unzig(next(values)), unzig(next(values))
        kind = code if code in (1, 2) else 0
        if channels[channel] == "compat":
            rows.append((start, depth, f"{names[name]} {depth} {kind}"))
print("\n".join(r[2] for r in sorted(rows)))
PY
) || fail "cannot read ${files[0]}"
expected='outer 0 0
work 1 0
work 1 0
work 1 0
manual 0 0
work 1 0
done 0 1'
[[ $events == "$expected" ]] || fail "events of channel 'compat' differ: expected
$expected
got
$events"

samples=$(sqlite3 -readonly "${files[0]}" "
  SELECT g.unit || ' ' || sn.text || ' ' || s.value FROM sample s
  JOIN series r ON r.id = s.series_id JOIN name sn ON sn.id = r.name_id
  JOIN graph g ON g.id = r.graph_id JOIN name gn ON gn.id = g.name_id
  WHERE gn.text = 'loss' ORDER BY s.t_ns") || fail "cannot read the samples of ${files[0]}"
expected_samples='% train 100.0
% train 50.0
% train 33.3333333333333'
[[ $samples == "$expected_samples" ]] || fail "samples of graph 'loss' differ: expected
$expected_samples
got
$samples"
