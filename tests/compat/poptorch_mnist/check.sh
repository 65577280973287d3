# A PopTorch tutorial-style MNIST program (mnist.py: poptorch.DataLoader over an ImageFolder,
# Options().deviceIterations, trainingModel with SGD, inferenceModel for the accuracy) runs
# unchanged with `import poptorch` after `source enable.sh`, over synthetic digits written by
# make_digits.py; its loss falls, its test accuracy is high, and POPLAR_ENGINE_OPTIONS' autoReport
# writes reports that pva and tilescope-cli open.
set -u
fail() {
  echo "poptorch_mnist: $*"
  exit 1
}
# torch, torchvision and numpy are Debian's: use the python3 on PATH when it has them, else
# Debian's (the interpreter the modules were built for), as a user with a virtualenv would.
python=python3
if ! python3 -c "import torch, torchvision" 2>/dev/null && [[ -x /usr/bin/python3 ]]; then
  python=/usr/bin/python3
fi
$python -c "import poptorch" || fail "$python -c 'import poptorch' failed (PYTHONPATH=${PYTHONPATH-})"
rm -rf mnist_data report
$python make_digits.py mnist_data || fail "make_digits.py failed"
actual=$(POPLAR_ENGINE_OPTIONS='{"autoReport.all":"true","autoReport.directory":"./report"}' \
  $python mnist.py) || fail "mnist.py failed"
echo "$actual"
grep -qx "loss fell: True" <<<"$actual" || fail "the loss did not fall"
accuracy=$(sed -n 's/^test accuracy: \([0-9.]*\)%$/\1/p' <<<"$actual")
[[ -n $accuracy ]] || fail "mnist.py printed no test accuracy"
$python -c "import sys; sys.exit(0 if float('$accuracy') >= 90.0 else 1)" ||
  fail "test accuracy $accuracy% is below 90%"

shopt -s globstar nullglob
reports=(report/**/profile.pop)
((${#reports[@]} == 2)) || fail "expected two reports (training, inference), found: ${reports[*]:-none}"
for r in "${reports[@]}"; do
  $python - "$r" <<'PY' || fail "pva could not read $r"
import sys
import pva
report = pva.openReport(sys.argv[1])
assert report.compilation.target.numTiles == 1472, report.compilation.target.numTiles
paths = {op.debugPath for op in pva.OperationAnalysis(report).operations if op.layer == "PopART"}
# The operations carry the PyTorch module paths that made them.
assert any(p.startswith("model/layer1/conv/") for p in paths) or \
    any(p.startswith("layer1/conv/") for p in paths), sorted(paths)[:10]
PY
  if command -v tilescope-cli >/dev/null; then
    tilescope-cli summary "$r" >/dev/null || fail "tilescope-cli summary $r failed"
  fi
done
