# Four replicas hold 10r + i; the all-reduce gives 60 + 4i on every replica, plus 0.5.
out=$(./prog 2>&1) || { echo "gcl_allreduce: the program failed:"; echo "$out"; exit 1; }
fail() {
  echo "gcl_allreduce: $1; the program printed:"
  echo "$out"
  exit 1
}
grep -qxF 'replication factor: 4' <<<"$out" || fail "the graph is not replicated 4 times"
grep -qxF 'IPUs per replica: 1' <<<"$out" || fail "a replica does not have 1 IPU"
for r in 0 1 2 3; do
  grep -qxF "replica $r: 60.5 64.5 68.5 72.5 76.5 80.5" <<<"$out" ||
    fail "replica $r does not hold the sum over the replicas"
done
