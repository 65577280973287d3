# The counters come from the simulator's cycle model: the exact figures may change with it, but
# four repetitions take four times one, the stamps around the same work (plus a sync) take more,
# a run without execution profiling counts the same, and x was incremented 7 times.
out=$(./prog 2>&1) || { echo "cycle_count: the program failed:"; echo "$out"; exit 1; }
value() { sed -n "s/^$1: \([0-9][0-9]*\)\$/\1/p" <<<"$out"; }
once=$(value 'cycles once')
four=$(value 'cycles four times')
stamps=$(value 'cycles between stamps')
disabled=$(value 'cycles once (profiling disabled)')
fail() {
  echo "cycle_count: $1; the program printed:"
  echo "$out"
  exit 1
}
[ -n "$once" ] && [ -n "$four" ] && [ -n "$stamps" ] && [ -n "$disabled" ] ||
  fail "a cycle count line is missing or not a number"
[ "$once" -gt 0 ] || fail "cycles once is 0"
[ "$four" -eq $((4 * once)) ] || fail "cycles four times ($four) is not 4 x cycles once ($once)"
[ "$stamps" -gt "$once" ] || fail "cycles between stamps ($stamps) is not more than cycles once ($once)"
[ "$disabled" -eq "$once" ] || fail "cycles once with profiling disabled ($disabled) differs from $once"
grep -qxF 'x: 8 9 10 11 12 13 14 15' <<<"$out" || fail "expected the line 'x: 8 9 10 11 12 13 14 15'"
