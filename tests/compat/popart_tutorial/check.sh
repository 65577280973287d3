# A PopART tutorial-style program (Builder, Gemm/Relu, nllloss, TrainingSession with SGD over
# batchesPerStep batches, anchors, then an InferenceSession from the trained ONNX file) runs
# unchanged with `import popart` after `source enable.sh`, and its session writes a report.
set -u
fail() {
  echo "popart_tutorial: $*"
  exit 1
}
python3 -c "import popart" || fail "python3 -c 'import popart' failed (PYTHONPATH=${PYTHONPATH-})"
rm -rf report trained.onnx
actual=$(python3 train_and_infer.py) || fail "train_and_infer.py failed"
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
[[ -f report/profile.pop ]] || fail "the training session wrote no report/profile.pop"
python3 -c "import pva; r = pva.openReport('report/profile.pop'); assert r.compilation.target.numTiles == 16" ||
  fail "pva could not read report/profile.pop"
