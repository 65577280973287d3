"""What torch 1.13's torch.onnx.export emits for common layers, run through popart: a decoder
(ConvTranspose2d, GroupNorm, PReLU, Hardswish, CELU), nearest and bilinear upsampling, cumsum
and topk, and a CNN with batch normalisation in
training mode (exported with TrainingMode.TRAINING at opsets 11..14, so BatchNormalization-9
with its running-statistics outputs) train one SGD step as torch does; dropout masks differ per
batch; an op popart cannot lower is named, with its node, in the error PopTorch's users see;
and the report's operations carry the torch module path of each node."""
import copy
import glob
import io
import os

import numpy as np
import onnx
import pytest
import torch
from onnx import numpy_helper
from torch import nn

import popart

import models

TILES = 16
LR = 0.1


def _device():
    return popart.DeviceManager().createIpuModelDevice({"numIPUs": 1, "tilesPerIPU": TILES})


class Decoder(nn.Module):

    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1)
        self.norm = nn.GroupNorm(2, 6)
        self.act = nn.PReLU(6)
        self.head = nn.ConvTranspose2d(6, 2, 2, stride=1, groups=2)

    def forward(self, x):
        x = self.act(self.norm(self.up(x)))
        x = nn.functional.hardswish(x) + nn.functional.celu(x, 0.5)
        return self.head(x)


class Upsampler(nn.Module):
    """nn.Upsample's nearest and bilinear modes (Resize), between convolutions."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(2, 3, 3, padding=1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.conv2 = nn.Conv2d(3, 2, 3)

    def forward(self, x):
        x = self.conv2(self.up(self.conv1(x)))
        return nn.functional.interpolate(x, size=(7, 5), mode="bilinear", align_corners=False)


class ScanAndSelect(nn.Module):
    """torch.cumsum (CumSum) and Tensor.topk (TopK) between linear layers."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(3, 2)

    def forward(self, x):
        x = torch.cumsum(self.fc1(x), dim=1)
        x = x + torch.cumsum(x, dim=0)
        return self.fc2(x.topk(3, dim=1)[0])


class BatchNormCnn(nn.Module):

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(4, 3)
        self.bn1d = nn.BatchNorm1d(3)

    def forward(self, x):
        x = torch.relu(self.bn(self.conv(x)))
        return self.bn1d(self.fc(torch.flatten(self.pool(x), 1)))


def _export(model, inputs, mode, opset):
    buf = io.BytesIO()
    torch.onnx.export(model, tuple(torch.from_numpy(i) for i in inputs), buf, opset_version=opset,
                      training=mode, do_constant_folding=False,
                      input_names=[f"input{i}" for i in range(len(inputs))])
    return buf.getvalue()


def _train_step(model, x, target, mode, opset, tmp_path):
    """popart's weights and loss after one SGD step, and torch's (model in train mode)."""
    wrapped = models.WithLoss(copy.deepcopy(model), models._mse)
    proto = _export(wrapped, (x, target), mode, opset)
    loss = onnx.load_from_string(proto).graph.output[0].name
    session = popart.TrainingSession(
        fnModel=proto, dataFlow=popart.DataFlow(1, {loss: popart.AnchorReturnType("ALL")}),
        loss=loss, optimizer=popart.ConstSGD(LR), deviceInfo=_device())
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    session.run(popart.PyStepIO({"input0": x, "input1": target}, anchors))
    path = str(tmp_path / "trained.onnx")
    session.modelToHost(path)
    trained = {t.name: numpy_helper.to_array(t) for t in onnx.load(path).graph.initializer}

    reference = models.WithLoss(copy.deepcopy(model), models._mse)
    reference.train()
    optimiser = torch.optim.SGD(reference.parameters(), lr=LR)
    value, _ = reference(torch.from_numpy(x), torch.from_numpy(target))
    value.backward()
    optimiser.step()
    expected = {n: p.detach().numpy() for n, p in reference.named_parameters()}
    return trained, float(anchors[loss]), expected, float(value)


def _compare(trained, expected):
    for name, value in expected.items():
        assert name in trained, f"{name} not among the trained initializers ({sorted(trained)})"
        np.testing.assert_allclose(trained[name], value, rtol=2e-4, atol=2e-5, err_msg=name)


@pytest.mark.parametrize("opset", [12, 14])  # Celu exports from opset 12
def test_decoder_trains_as_torch(opset, tmp_path):
    torch.manual_seed(0)
    model = models._distinct(Decoder())
    gen = np.random.default_rng(0)
    x = gen.normal(size=(2, 4, 3, 3)).astype(np.float32)
    target = gen.normal(size=(2, 2, 7, 7)).astype(np.float32)
    trained, loss, expected, expected_loss = _train_step(model, x, target,
                                                         torch.onnx.TrainingMode.EVAL, opset,
                                                         tmp_path)
    assert loss == pytest.approx(expected_loss, rel=1e-4)
    _compare(trained, expected)


@pytest.mark.parametrize("opset", [11, 13])
def test_upsampling_trains_as_torch(opset, tmp_path):
    torch.manual_seed(2)
    model = models._distinct(Upsampler())
    gen = np.random.default_rng(2)
    x = gen.normal(size=(2, 2, 4, 4)).astype(np.float32)
    target = gen.normal(size=(2, 2, 7, 5)).astype(np.float32)
    trained, loss, expected, expected_loss = _train_step(model, x, target,
                                                         torch.onnx.TrainingMode.EVAL, opset,
                                                         tmp_path)
    assert loss == pytest.approx(expected_loss, rel=1e-4)
    _compare(trained, expected)


def test_cumsum_and_topk_train_as_torch(tmp_path):
    torch.manual_seed(3)
    model = models._distinct(ScanAndSelect())
    gen = np.random.default_rng(3)
    x = gen.normal(size=(4, 6)).astype(np.float32)
    target = gen.normal(size=(4, 2)).astype(np.float32)
    trained, loss, expected, expected_loss = _train_step(model, x, target,
                                                         torch.onnx.TrainingMode.EVAL, 13,
                                                         tmp_path)
    assert loss == pytest.approx(expected_loss, rel=1e-4)
    _compare(trained, expected)


@pytest.mark.parametrize("opset", [11, 12, 13, 14])
def test_batchnorm_in_training_mode_trains_as_torch(opset, tmp_path):
    torch.manual_seed(1)
    model = models._distinct(BatchNormCnn())
    gen = np.random.default_rng(1)
    x = gen.normal(size=(4, 2, 5, 5)).astype(np.float32)
    target = gen.normal(size=(4, 3)).astype(np.float32)
    trained, loss, expected, expected_loss = _train_step(model, x, target,
                                                         torch.onnx.TrainingMode.TRAINING, opset,
                                                         tmp_path)
    assert loss == pytest.approx(expected_loss, rel=1e-4)
    _compare(trained, expected)


def test_an_op_that_cannot_be_lowered_is_named():
    class WithLstm(nn.Module):

        def __init__(self):
            super().__init__()
            self.rnn = nn.LSTM(4, 3, batch_first=True)

        def forward(self, x):
            return self.rnn(x)[0]

    proto = _export(WithLstm(), (np.zeros((1, 2, 4), np.float32),), torch.onnx.TrainingMode.EVAL,
                    13)
    out = onnx.load_from_string(proto).graph.output[0].name
    session = popart.InferenceSession(
        fnModel=proto, dataFlow=popart.DataFlow(1, {out: popart.AnchorReturnType("ALL")}),
        deviceInfo=_device())
    with pytest.raises(popart.popart_exception, match=r"LSTM \(node '/rnn/LSTM', opset 13\)"):
        session.prepareDevice()


class Block(nn.Module):

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 2, 3, padding=1)

    def forward(self, x):
        return torch.relu(self.conv(x))


class Nested(nn.Module):

    def __init__(self):
        super().__init__()
        self.layer1 = Block()
        self.layer2 = Block()
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(32, 3))

    def forward(self, x):
        return self.head(self.layer2(self.layer1(x)))


def test_report_operations_follow_the_module_path(tmp_path):
    """torch names nodes by module path ("/layer1/conv/Conv"): the report has an operation per
    module, each node's operation inside its module's, so Operations and the Operations Graph
    show the model as its author wrote it; the node keeps its full name in its debug values."""
    torch.manual_seed(0)
    x = np.ones((1, 2, 4, 4), np.float32)
    proto = _export(Nested(), (x,), torch.onnx.TrainingMode.EVAL, 13)
    names = [n.name for n in onnx.load_from_string(proto).graph.node]
    assert "/layer1/conv/Conv" in names and "/head/head.1/Gemm" in names, names
    out = onnx.load_from_string(proto).graph.output[0].name
    options = popart.SessionOptions()
    report_dir = tmp_path / "report"
    options.engineOptions = {"autoReport.all": "true", "autoReport.directory": str(report_dir)}
    session = popart.InferenceSession(
        fnModel=proto, dataFlow=popart.DataFlow(1, {out: popart.AnchorReturnType("ALL")}),
        deviceInfo=_device(), userOptions=options)
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    session.run(popart.PyStepIO({"input0": x}, anchors))

    import pva
    report = pva.openReport(glob.glob(str(report_dir / "**" / "profile.pop"), recursive=True)[0])
    ops = {op.debugPath: op for op in pva.OperationAnalysis(report).operations
           if op.layer == "PopART"}
    for scope in ["layer1", "layer1/conv", "layer2", "layer2/conv", "head", "head/head.1"]:
        assert scope in ops, f"no operation for module '{scope}' (PopART ones: {sorted(ops)})"
        assert ops[scope].name == scope.split("/")[-1]
    conv = ops["layer1/conv/Conv"]
    assert conv.name == "Conv"
    assert '"nodeName":"/layer1/conv/Conv"' in conv.debugContext.json.replace(" ", "")
    assert ops["head/head.1/Gemm"].name == "Gemm"
    # PopLibs' work nests under the node: the convolution's path continues the module path.
    poplibs = [op.debugPath for op in pva.OperationAnalysis(report).operations
               if op.layer == "PopLibs"]
    assert any(p.startswith("layer2/conv/Conv/") for p in poplibs), poplibs
