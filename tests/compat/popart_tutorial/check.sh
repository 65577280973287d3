# A PopART tutorial-style program (Builder, Gemm/Relu, nllloss, TrainingSession with SGD over
# batchesPerStep batches, anchors, then an InferenceSession from the trained ONNX file) runs
# unchanged with `import popart` after `source enable.sh`, and its session writes a report.
set -u
fail() {
  echo "popart_tutorial: $*"
  exit 1
}
# The program needs numpy: use the python3 on PATH when it has it, else Debian's (the interpreter
# python3-numpy serves and the modules were built for), as a user with a virtualenv would.
python=python3
if ! python3 -c "import numpy" 2>/dev/null && [[ -x /usr/bin/python3 ]]; then
  python=/usr/bin/python3
fi
$python -c "import popart" || fail "$python -c 'import popart' failed (PYTHONPATH=${PYTHONPATH-})"
rm -rf report trained.onnx
actual=$($python train_and_infer.py) || fail "train_and_infer.py failed"
expected="inputs: ['x', 'labels']
probs shape: [8, 4]
loss anchor shape: [10]
probs anchor shape: [8, 4]
loss decreased: True
test accuracy >= 0.75: True"
[[ $actual == "$expected" ]] || fail "train_and_infer.py printed
$actual
expected
$expected"
[[ -f trained.onnx ]] || fail "modelToHost did not write trained.onnx"
# As PopART names each session's engine, Poplar writes the training session's report to a
# subfolder of autoReport.directory named after the session (the inference session asks for none).
[[ -f report/training/profile.pop ]] || fail "the training session wrote no report/training/profile.pop"
$python -c "import pva; r = pva.openReport('report/training/profile.pop'); assert r.compilation.target.numTiles == 16" ||
  fail "pva could not read report/training/profile.pop"
