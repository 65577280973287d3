# v1 = 0..7 as a 2x4 tensor, plus {1, 1.5, 2, 2.5} on each row.
expected='sum: 1 2.5 4 5.5 5 6.5 8 9.5'
actual=$(./prog)
if ! grep -qxF -- "$expected" <<<"$actual"; then
  echo "hello_ipu_model: expected the line '$expected', the program printed:"
  echo "$actual"
  exit 1
fi
