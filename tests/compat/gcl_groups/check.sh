# Replica r holds 10r + i (i = 0..3). CONSECUTIVE pairs are {0, 1} and {2, 3}, ORTHOGONAL pairs
# {0, 2} and {1, 3}; the all-to-all gives replica j element j of replicas 0..3.
out=$(./prog 2>&1) || { echo "gcl_groups: the program failed:"; echo "$out"; exit 1; }
fail() {
  echo "gcl_groups: $1; the program printed:"
  echo "$out"
  exit 1
}
expect() {
  grep -qxF "$1" <<<"$out" || fail "missing '$1'"
}
expect 'consecutive 0: 10 12 14 16'
expect 'consecutive 1: 10 12 14 16'
expect 'consecutive 2: 50 52 54 56'
expect 'consecutive 3: 50 52 54 56'
expect 'orthogonal 0: 20 22 24 26'
expect 'orthogonal 1: 40 42 44 46'
expect 'orthogonal 2: 20 22 24 26'
expect 'orthogonal 3: 40 42 44 46'
for j in 0 1 2 3; do
  expect "allToAll $j: $j $((10 + j)) $((20 + j)) $((30 + j))"
done
