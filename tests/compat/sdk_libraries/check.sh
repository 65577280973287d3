# Every SDK library name links alone and loads at run time, with the library holding its code.
set -u
declare -A holder=(
  [poplar]=libpoplar.so [poputil]=libpoputil.so [popops]=libpopops.so [poplin]=libpoplin.so
  [popnn]=libpopnn.so [poprand]=libpoprand.so [popfloat]=libpopfloat.so [gcl]=libgcl.so
  [pvti]=libtilescope-capture.so [pva]=libtilescope-report.so
)
failed=0
for library in "${!holder[@]}"; do
  program=./link_$library
  output=$($program 2>&1)
  if [[ $output != loaded ]]; then
    echo "sdk_libraries: $program (linked with -l$library) printed: $output"
    failed=1
    continue
  fi
  if ! ldd "$program" | grep -q "${holder[$library]}"; then
    echo "sdk_libraries: $program does not load ${holder[$library]}: $(ldd "$program")"
    failed=1
  fi
done
exit "$failed"
