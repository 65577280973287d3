set -u
actual=$(./build/matrix_sum) || { echo "cmake_project: ./build/matrix_sum failed"; exit 1; }
if [[ $actual != "2m-1: -1 1 3 5 7 9 11 13 15 17 19 21" ]]; then
  echo "cmake_project: expected '2m-1: -1 1 3 5 7 9 11 13 15 17 19 21', the program printed: $actual"
  exit 1
fi
traced=$(./build/trace_only) || { echo "cmake_project: ./build/trace_only failed"; exit 1; }
if [[ $traced != "traced" ]]; then
  echo "cmake_project: expected 'traced', trace_only printed: $traced"
  exit 1
fi
