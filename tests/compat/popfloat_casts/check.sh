# Values worked out by hand:
#   bfloat16 RN: 3.14159 -> 3.140625, -2.71828 -> -2.71875, 1000.5 -> 1000, 1e-6 -> 9.98378e-07
#     (0x3586), 65504 -> 65536.
#   1/5/2 RZ (values 1, 1.25, 1.5, 1.75 times powers of two; largest 57344; smallest 2^-16):
#     3.14159 -> 3, -2.71828 -> -2.5, 1000.5 -> 896, 1e-6 -> 0, 65504 -> 57344 (clipped).
expected='packed type: char
bfloat16: 1 3.14062 -2.71875 1000 9.98378e-07 65536
1/5/2 RZ: 1 3 -2.5 896 0 57344'
actual=$(./prog) || { echo "popfloat_casts: ./prog failed"; exit 1; }
if [[ $actual != "$expected" ]]; then
  echo "popfloat_casts: expected"
  echo "$expected"
  echo "the program printed"
  echo "$actual"
  exit 1
fi
