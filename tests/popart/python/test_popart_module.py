"""`import popart`: the Builder, sessions, PyStepIO and anchors, optimizers and the exception
types, used as PopART's Python API is used."""
import json

import numpy as np
import pytest

import popart


def _device(tiles=4):
    return popart.DeviceManager().createIpuModelDevice({"numIPUs": 1, "tilesPerIPU": tiles})


def test_tensor_info_and_builder_queries():
    info = popart.TensorInfo("FLOAT", [2, 3])
    assert info.data_type() == "FLOAT" and info.shape() == [2, 3] and info.nelms() == 6
    assert popart.TensorInfo(np.zeros((4, 5), np.int32)).data_type_lcase() == "int32"
    builder = popart.Builder()
    x = builder.addInputTensor(info, "x")
    w = builder.addInitializedInputTensor(np.ones((3, 4), np.float32), "w")
    with builder.nameScope("layer"):
        y = builder.aiOnnx.matmul([x, w])
    builder.addOutputTensor(y)
    assert builder.getTensorShape(y) == [2, 4]
    assert builder.getInputTensorIds() == [x, w]  # ONNX graph inputs include initializers
    assert builder.getOutputTensorIds() == [y]
    assert y.startswith("layer")
    with pytest.raises(RuntimeError, match="opset"):
        builder.aiOnnxOpset9  # the builder already uses the default op set


def test_inference_with_batches_per_step_and_return_types():
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [2, 3]), "x")
    y = builder.aiOnnx.relu([x])
    z = builder.aiOnnx.add([y, builder.aiOnnx.constant(np.float32(1.0), "one")])
    builder.addOutputTensor(z)
    flow = popart.DataFlow(4, {y: popart.AnchorReturnType("ALL"),
                               z: popart.AnchorReturnType("FINAL")})
    session = popart.InferenceSession(fnModel=builder.getModelProto(), dataFlow=flow,
                                      deviceInfo=_device())
    session.prepareDevice()
    anchors = session.initAnchorArrays()
    assert anchors[y].shape == (4, 2, 3) and anchors[z].shape == (2, 3)
    data = np.random.default_rng(1).normal(size=(4, 2, 3)).astype(np.float32)
    session.run(popart.PyStepIO({x: data}, anchors))
    np.testing.assert_allclose(anchors[y], np.maximum(data, 0))
    np.testing.assert_allclose(anchors[z], np.maximum(data[-1], 0) + 1)


def test_training_sgd_step_matches_numpy():
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [4, 3]), "x")
    labels = builder.addInputTensor(popart.TensorInfo("INT32", [4]), "labels")
    w0 = np.random.default_rng(2).normal(size=(3, 5)).astype(np.float32)
    w = builder.addInitializedInputTensor(w0, "w")
    probs = builder.aiOnnx.softmax([builder.aiOnnx.matmul([x, w])], axis=1)
    loss = builder.aiGraphcore.nllloss([probs, labels], reduction=popart.ReductionType.Mean)
    flow = popart.DataFlow(1, {loss: popart.AnchorReturnType("ALL")})
    session = popart.TrainingSession(fnModel=builder.getModelProto(), dataFlow=flow, loss=loss,
                                     optimizer=popart.ConstSGD(0.5), deviceInfo=_device())
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    xs = np.random.default_rng(3).normal(size=(4, 3)).astype(np.float32)
    ys = np.array([0, 1, 2, 3], np.int32)
    session.run(popart.PyStepIO({x: xs, labels: ys}, anchors))

    logits = xs @ w0
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    np.testing.assert_allclose(anchors[loss], -np.log(p[range(4), ys]).mean(), rtol=1e-5)
    grad = p.copy()
    grad[range(4), ys] -= 1
    expected = w0 - 0.5 * xs.T @ grad / 4
    session.weightsToHost()
    weights = {w: np.empty((3, 5), np.float32)}
    session.readWeights(popart.PyWeightsIO(weights))
    np.testing.assert_allclose(weights[w], expected, rtol=1e-4, atol=1e-6)


def test_errors_are_popart_exceptions():
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [2]), "x")
    y = builder.customOp("NoSuchOp", 1, "ai.onnx", [x], {}, 1)[0]
    builder.addOutputTensor(y)
    with pytest.raises(popart.popart_exception, match="NoSuchOp"):
        session = popart.InferenceSession(fnModel=builder.getModelProto(),
                                          dataFlow=popart.DataFlow(
                                              1, {y: popart.AnchorReturnType("ALL")}),
                                          deviceInfo=_device())
        session.prepareDevice()
    with pytest.raises(popart.popart_exception):
        popart.AnchorReturnType("SOMETIMES")
    with pytest.raises(AttributeError):
        popart.SessionOptions().noSuchOption = 1
    assert issubclass(popart.OutOfMemoryException, popart.popart_exception)
    assert issubclass(popart.popart_exception, RuntimeError)


def test_step_io_rejects_wrong_sizes():
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [3]), "x")
    y = builder.aiOnnx.neg([x])
    session = popart.InferenceSession(fnModel=builder.getModelProto(),
                                      dataFlow=popart.DataFlow(
                                          1, {y: popart.AnchorReturnType("ALL")}),
                                      deviceInfo=_device())
    session.prepareDevice()
    anchors = session.initAnchorArrays()
    with pytest.raises(popart.popart_exception, match="x"):
        session.run(popart.PyStepIO({x: np.zeros(4, np.float32)}, anchors))


def test_out_of_memory_is_popart_out_of_memory_exception():
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [512, 1024]), "x")  # 2 MiB on one tile
    y = builder.aiOnnx.relu([x])
    session = popart.InferenceSession(fnModel=builder.getModelProto(),
                                      dataFlow=popart.DataFlow(
                                          1, {y: popart.AnchorReturnType("ALL")}),
                                      deviceInfo=_device(tiles=1))
    with pytest.raises(popart.OutOfMemoryException, match="tile 0") as caught:
        session.prepareDevice()
    assert isinstance(caught.value, popart.popart_exception)
    assert "Out of memory" in caught.value.getSummaryReport()
    assert caught.value.getProfilePath() == ""  # no autoReport asked for


def test_sessions_write_their_reports_to_subfolders_named_after_them(tmp_path, monkeypatch):
    # Graphcore's libpva tutorial: with autoReport set in POPLAR_ENGINE_OPTIONS only, a training
    # and an inference session of one model leave DIR/training/profile.pop and
    # DIR/inference/profile.pop, as PopART names each session's engine.
    report_dir = tmp_path / "reports"
    monkeypatch.setenv("POPLAR_ENGINE_OPTIONS", json.dumps(
        {"autoReport.all": "true", "autoReport.directory": str(report_dir)}))
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [4, 8]), "x")
    w = builder.addInitializedInputTensor(np.full((8, 3), 0.1, np.float32), "w")
    probs = builder.aiOnnx.softmax([builder.aiOnnx.matmul([x, w])])
    label = builder.addInputTensor(popart.TensorInfo("INT32", [4]), "label")
    loss = builder.aiGraphcore.nllloss([probs, label], popart.ReductionType.Sum)
    flow = popart.DataFlow(2, {loss: popart.AnchorReturnType("ALL")})
    training = popart.TrainingSession(fnModel=builder.getModelProto(), loss=loss,
                                      optimizer=popart.ConstSGD(0.01), dataFlow=flow,
                                      deviceInfo=_device())
    training.prepareDevice()
    inference = popart.InferenceSession(fnModel=builder.getModelProto(), dataFlow=flow,
                                        deviceInfo=_device())
    inference.prepareDevice()
    for name, session in (("training", training), ("inference", inference)):
        path = report_dir / name / "profile.pop"
        assert path.is_file(), f"no {path}"
        assert session.getReport().compilation.target.numTiles == 4
    assert not (report_dir / "profile.pop").exists()


def test_a_session_name_that_leaves_the_report_folder_is_refused(tmp_path):
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [3]), "x")
    y = builder.aiOnnx.neg([x])
    options = popart.SessionOptions()
    options.engineOptions = {"autoReport.all": "true", "autoReport.directory": str(tmp_path)}
    session = popart.InferenceSession(fnModel=builder.getModelProto(),
                                      dataFlow=popart.DataFlow(
                                          1, {y: popart.AnchorReturnType("ALL")}),
                                      deviceInfo=_device(), userOptions=options, name="../outside")
    with pytest.raises(popart.popart_exception, match="'../outside'"):
        session.prepareDevice()
    assert not (tmp_path.parent / "outside").exists()
