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
events=$(sqlite3 -readonly "${files[0]}" "
  SELECT n.text || ' ' || e.depth || ' ' || e.kind FROM event e
  JOIN channel c ON c.id = e.channel_id JOIN name cn ON cn.id = c.name_id
  JOIN name n ON n.id = e.name_id
  WHERE cn.text = 'compat' ORDER BY e.start_ns, e.depth") || fail "cannot read ${files[0]}"
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
