"""Four torch models exported with torch.onnx.export into a temporary directory, run through
popart's InferenceSession (outputs match torch's) and TrainingSession (weights after one SGD step
match a torch SGD step); the sessions' reports open with pva and `tilescope-cli summary`."""
import copy
import glob
import os
import subprocess

import numpy as np
import onnx
import pytest
from onnx import numpy_helper

import popart

import models

TILES = 16
LEARNING_RATE = 0.1
CASES = models.cases()


def _device():
    return popart.DeviceManager().createIpuModelDevice({"numIPUs": 1, "tilesPerIPU": TILES})


def _options(report_dir):
    options = popart.SessionOptions()
    options.engineOptions = {"autoReport.all": "true", "autoReport.directory": str(report_dir)}
    return options


def _check_report(report_dir):
    # Each session writes report_dir/<session name>/profile.pop, as PopART names its engines
    # after its sessions and Poplar writes a named engine's report to that subfolder.
    paths = sorted(glob.glob(os.path.join(str(report_dir), "**", "profile.pop"), recursive=True))
    assert paths, f"no profile.pop under {report_dir}"
    import pva
    report = pva.openReport(paths[0])
    assert report.compilation.target.numTiles == TILES
    layers = {op.layer for op in pva.OperationAnalysis(report).operations}
    assert "PopART" in layers, f"no PopART operations in the report (layers: {sorted(layers)})"
    cli = os.environ.get("TILESCOPE_CLI")
    if cli:
        out = subprocess.run([cli, "summary", paths[0]], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr


def _conv_lowered():
    """Whether popart lowers Conv (it needs PopLibs' convolutions): a one-node model compiles."""
    builder = popart.Builder()
    x = builder.addInputTensor(popart.TensorInfo("FLOAT", [1, 1, 3, 3]), "x")
    w = builder.addInitializedInputTensor(np.ones((1, 1, 1, 1), np.float32), "w")
    y = builder.aiOnnx.conv([x, w])
    try:
        popart.InferenceSession(fnModel=builder.getModelProto(),
                                dataFlow=popart.DataFlow(1, {y: popart.AnchorReturnType("ALL")}),
                                deviceInfo=_device()).prepareDevice()
    except popart.popart_exception as e:
        if "Conv" in str(e) and "not supported" in str(e):
            return False
        raise
    return True


def _require_ops(name):
    if name == "cnn" and not _conv_lowered():
        pytest.skip("Conv is not lowered by popart in this build (PopLibs' convolutions and their "
                    "ONNX lowering are needed)")


@pytest.mark.parametrize("name", sorted(CASES))
def test_inference_matches_torch(name, tmp_path):
    _require_ops(name)
    model, x, _, _ = CASES[name]
    model = copy.deepcopy(model)
    expected = models.torch_forward(model, x)
    path = models.export(model, (x,), str(tmp_path), name)
    output = onnx.load(path).graph.output[0].name

    session = popart.InferenceSession(fnModel=path,
                                      dataFlow=popart.DataFlow(
                                          1, {output: popart.AnchorReturnType("ALL")}),
                                      deviceInfo=_device(),
                                      userOptions=_options(tmp_path / "report"))
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    session.run(popart.PyStepIO({"input0": x}, anchors))
    np.testing.assert_allclose(anchors[output], expected, rtol=1e-4, atol=1e-5)
    _check_report(tmp_path / "report")


@pytest.mark.parametrize("name", sorted(CASES))
def test_training_step_matches_torch(name, tmp_path):
    _require_ops(name)
    model, x, target, loss = CASES[name]
    expected_weights, expected_loss = models.torch_sgd_step(copy.deepcopy(model), x, target, loss,
                                                            LEARNING_RATE)
    path = models.export(models.WithLoss(copy.deepcopy(model), loss), (x, target), str(tmp_path),
                         name + "_train")
    loss_name = onnx.load(path).graph.output[0].name

    session = popart.TrainingSession(fnModel=path,
                                     dataFlow=popart.DataFlow(
                                         1, {loss_name: popart.AnchorReturnType("ALL")}),
                                     loss=loss_name,
                                     optimizer=popart.ConstSGD(LEARNING_RATE),
                                     deviceInfo=_device(),
                                     userOptions=_options(tmp_path / "report"))
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    session.run(popart.PyStepIO({"input0": x, "input1": target}, anchors))
    np.testing.assert_allclose(float(anchors[loss_name]), expected_loss, rtol=1e-4, atol=1e-5)

    trained = str(tmp_path / "trained.onnx")
    session.modelToHost(trained)
    weights = {t.name: numpy_helper.to_array(t) for t in onnx.load(trained).graph.initializer}
    for param, value in expected_weights.items():
        assert param in weights, f"{param} not among the trained model's initializers"
        np.testing.assert_allclose(weights[param], value, rtol=1e-4, atol=1e-5, err_msg=param)
    _check_report(tmp_path / "report")
