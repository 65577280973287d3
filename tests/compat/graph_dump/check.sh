# The program writes the graph in four forms and runs the binary one; check what it printed and
# that each file describes this graph.
fail() {
  echo "graph_dump: $*"
  exit 1
}
output=$(./prog 2>&1) || fail "the program failed: $output"
# Row 1 of weights is {4,5,6}, scaled by 3 and shifted by {10,20,30}.
grep -qxF -- 'shifted: 22 35 48' <<<"$output" ||
  fail "expected the line 'shifted: 22 35 48', the program printed: $output"

for f in graph.json graph.bin vertex_graph.dot compute_graph.dot; do
  [[ -s $f ]] || fail "$f was not written"
done
grep -q '"name": "weights"' graph.json || fail "graph.json does not list the variable 'weights'"
grep -q '"type": "ScaleVertex"' graph.json || fail "graph.json does not list the ScaleVertex vertices"
grep -q '"name": "scaleRows"' graph.json || fail "graph.json does not list the compute set 'scaleRows'"
grep -q '"tileMapping"' graph.json || fail "graph.json has no tile mapping"
if command -v python3 >/dev/null; then
  python3 -c 'import json, sys; json.load(open("graph.json"))' || fail "graph.json is not valid JSON"
fi
head -n 1 vertex_graph.dot | grep -qx 'digraph vertexGraph {' || fail "vertex_graph.dot is not a DOT digraph"
grep -q 'ScaleVertex' vertex_graph.dot || fail "vertex_graph.dot has no ScaleVertex node"
head -n 1 compute_graph.dot | grep -qx 'digraph computeGraph {' || fail "compute_graph.dot is not a DOT digraph"
grep -q 'scaleRows' compute_graph.dot || fail "compute_graph.dot has no scaleRows compute set"
if command -v dot >/dev/null; then
  dot -Tsvg vertex_graph.dot -o /dev/null || fail "Graphviz cannot read vertex_graph.dot"
  dot -Tsvg compute_graph.dot -o /dev/null || fail "Graphviz cannot read compute_graph.dot"
fi
exit 0
