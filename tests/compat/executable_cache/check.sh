# Run twice: the first run compiles the graph and saves prog.poplar_exec, the second loads it.
# The second run gets a compiler that always fails and an empty codelet cache, so it passes only
# if it compiles nothing (the executable carries the compiled codelet).
expected='result: 2 6 12 20'   # x*x + x for x = 1..4
rm -f prog.poplar_exec

first=$(./prog 2>&1)
if ! grep -qxF -- 'compiled and saved prog.poplar_exec' <<<"$first" ||
   ! grep -qxF -- "$expected" <<<"$first"; then
  echo "executable_cache: first run should compile, save and print '$expected'; it printed:"
  echo "$first"
  exit 1
fi
if [[ ! -s prog.poplar_exec ]]; then
  echo "executable_cache: the first run did not write prog.poplar_exec"
  exit 1
fi

second=$(TILESCOPE_CODELET_CXX=false TILESCOPE_CODELET_CACHE="$PWD/empty-codelet-cache" ./prog 2>&1)
if ! grep -qxF -- 'loaded prog.poplar_exec' <<<"$second" ||
   ! grep -qxF -- "$expected" <<<"$second"; then
  echo "executable_cache: second run should load the saved executable (no compilation) and" \
       "print '$expected'; it printed:"
  echo "$second"
  exit 1
fi

# A damaged file is refused with poplar's error, not a crash.
head -c 40 prog.poplar_exec > truncated.poplar_exec
mv truncated.poplar_exec prog.poplar_exec
third=$(./prog 2>&1)
status=$?
if ((status == 0)) || ((status >= 128)) || ! grep -q 'truncated' <<<"$third"; then
  echo "executable_cache: a truncated prog.poplar_exec should fail with a 'truncated' error" \
       "(exit status $status), the program printed:"
  echo "$third"
  exit 1
fi
