"""Float16 models through poptorch (model.half(), half inputs, mixed precision) against torch on
the CPU in float32, whose float16 matmuls and convolutions torch 1.13 cannot run.

Tolerance: float16 keeps an 11-bit significand (unit roundoff 2^-11, about 4.9e-4). The reference
starts from the same rounded weights (the halved model cast back to float32), so what differs
is the device's rounding of every product, activation, gradient and SGD update to float16:
a few units in the last place of each value's magnitude for these two- and three-layer models
(measured: at most 6.6e-4 on weights up to 0.5, 5e-4 on losses near 2.3). RTOL 1e-2 and ATOL
2e-3 (four units in the last place at 1.0) leave margin for that (every test here also passes
at half these tolerances) and still catch a wrong formula. That a model really runs in float16 is checked apart: dtypes of outputs and copied-back
parameters, the ONNX types the PopART face gets, the report's variables, and the cycle counts
(HALF matmuls and convolutions run faster than FLOAT ones)."""
import copy
import glob
import json

import onnx
import pytest
import torch
from torch import nn

import poptorch
import models

RTOL, ATOL = 1e-2, 2e-3


def _half_pair(name):
    """A model halved, the float32 reference holding the same rounded weights, and its data."""
    model, data = models.make(name)
    model.half()
    reference = copy.deepcopy(model).float()
    return model, reference, data


def _half(t):
    return t.half() if t.is_floating_point() else t


def _graph_types(executor):
    graph = executor._lowered.model.graph
    types = {i.name: i.data_type for i in graph.initializer}
    types.update({i.name: i.type.tensor_type.elem_type for i in graph.input})
    return graph, types


@pytest.mark.parametrize("name", ["mlp", "cnn"])
def test_inference_in_half_matches_torch(name):
    model, reference, data = _half_pair(name)
    model.eval()
    reference.eval()
    x, _ = data(6)
    with torch.no_grad():
        expected = reference(x)
    inference = poptorch.inferenceModel(model, poptorch.Options().deviceIterations(3))
    out = inference(x.half())
    assert out.dtype == torch.float16
    torch.testing.assert_close(out.float(), expected, rtol=RTOL, atol=ATOL)
    graph, types = _graph_types(inference)
    assert types[graph.input[0].name] == onnx.TensorProto.FLOAT16
    assert all(types[n] == onnx.TensorProto.FLOAT16 for n, _ in model.named_parameters())


@pytest.mark.parametrize("name", ["mlp", "cnn"])
def test_training_in_half_matches_torch(name, tmp_path, monkeypatch):
    monkeypatch.setenv("POPLAR_ENGINE_OPTIONS", json.dumps({
        "autoReport.all": "true", "autoReport.directory": str(tmp_path)}))
    model, reference, data = _half_pair(name)
    options = poptorch.Options().deviceIterations(2).outputMode(poptorch.OutputMode.All)
    training = poptorch.trainingModel(
        model, options, poptorch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9))
    ref_opt = torch.optim.SGD(reference.parameters(), lr=0.05, momentum=0.9)
    for _ in range(2):
        x, y = data(2 * 4)
        out, losses = training(x.half(), y)
        assert out.dtype == torch.float16 and losses.dtype == torch.float16
        expected = []
        for k in range(2):
            ref_opt.zero_grad()
            _, loss = reference(x[4 * k:4 * k + 4], y[4 * k:4 * k + 4])
            loss.backward()
            ref_opt.step()
            expected.append(loss.item())
        torch.testing.assert_close(losses.float(), torch.tensor(expected), rtol=RTOL, atol=ATOL)
    for (n, p), (_, q) in zip(model.named_parameters(), reference.named_parameters()):
        assert p.dtype == torch.float16, n
        torch.testing.assert_close(p.detach().float(), q.detach(), rtol=RTOL, atol=ATOL, msg=n)
    training.detachFromDevice()
    # The report holds the weights as half variables.
    import pva
    paths = sorted(glob.glob(str(tmp_path / "**" / "profile.pop"), recursive=True))
    assert paths, "autoReport wrote no profile.pop"
    variables = pva.openReport(paths[0]).compilation.variables
    types = {v.name.rsplit("/", 1)[-1]: v.elementType for v in variables}
    for n, _ in model.named_parameters():
        assert types.get(n) == "half", (n, types.get(n))


class BatchNormCnn(nn.Module):
    """A convolution, BatchNorm (running statistics kept by the module) and a linear head."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.norm = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8 * 8 * 8, 4)
        self.loss = nn.CrossEntropyLoss()

    def forward(self, x, labels=None):
        h = nn.functional.max_pool2d(torch.relu(self.norm(self.conv(x))), 2)
        out = self.fc(h.flatten(1))
        return out if labels is None else (out, self.loss(out, labels))


def test_batch_norm_in_half_trains_then_infers():
    torch.manual_seed(6)
    model = BatchNormCnn().half()
    reference = copy.deepcopy(model).float()
    gen = torch.Generator().manual_seed(7)
    training = poptorch.trainingModel(model, poptorch.Options().deviceIterations(2),
                                      poptorch.optim.SGD(model.parameters(), lr=0.01))
    ref_opt = torch.optim.SGD(reference.parameters(), lr=0.01)
    for _ in range(2):
        x, y = torch.randn(8, 3, 16, 16, generator=gen), torch.randint(0, 4, (8, ), generator=gen)
        training(x.half(), y)
        for k in range(2):
            ref_opt.zero_grad()
            reference(x[4 * k:4 * k + 4], y[4 * k:4 * k + 4])[1].backward()
            ref_opt.step()
    training.detachFromDevice()
    for (n, p), (_, q) in zip(model.named_parameters(), reference.named_parameters()):
        assert p.dtype == torch.float16, n
        torch.testing.assert_close(p.detach().float(), q.detach(), rtol=RTOL, atol=ATOL, msg=n)
    for name in ("running_mean", "running_var"):
        value = getattr(model.norm, name)
        assert value.dtype == torch.float16
        torch.testing.assert_close(value.float(), getattr(reference.norm, name), rtol=RTOL,
                                   atol=ATOL)
    model.eval()
    reference.eval()
    x = torch.randn(4, 3, 16, 16, generator=gen)
    out = poptorch.inferenceModel(model)(x.half())
    assert out.dtype == torch.float16
    torch.testing.assert_close(out.float(), reference(x).detach(), rtol=RTOL, atol=ATOL)


def test_half_over_replicas_and_accumulation():
    model, reference, data = _half_pair("mlp")
    options = poptorch.Options().deviceIterations(2).replicationFactor(2)
    options.Training.gradientAccumulation(2)
    training = poptorch.trainingModel(model, options,
                                      poptorch.optim.SGD(model.parameters(), lr=0.1))
    x, y = data(2 * 2 * 2 * 4)
    training(x.half(), y)
    ref_opt = torch.optim.SGD(reference.parameters(), lr=0.1)
    for step in range(2):
        # Two replicas of two accumulated micro-batches: four micro-batches' mean gradient.
        ref_opt.zero_grad()
        for k in range(4):
            i = (step * 4 + k) * 4
            (reference(x[i:i + 4], y[i:i + 4])[1] / 4).backward()
        ref_opt.step()
    for (n, p), (_, q) in zip(model.named_parameters(), reference.named_parameters()):
        assert p.dtype == torch.float16, n
        torch.testing.assert_close(p.detach().float(), q.detach(), rtol=RTOL, atol=ATOL, msg=n)


class HalfBodyFloatLoss(nn.Module):
    """An MLP whose loss is computed in float32 on its float16 output."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 4)
        self.loss = nn.CrossEntropyLoss()

    def forward(self, x, labels):
        out = self.fc2(torch.relu(self.fc1(x)))
        return out, self.loss(out.float(), labels)


class HalfBodyFloatHead(HalfBodyFloatLoss):
    """fc1 in float16, its output cast to float32 for fc2 (kept float32) and the loss."""

    def forward(self, x, labels):
        out = self.fc2(torch.relu(self.fc1(x)).float())
        return out, self.loss(out, labels)


@pytest.mark.parametrize("cls,float_layers", [(HalfBodyFloatLoss, ()),
                                              (HalfBodyFloatHead, ("fc2", ))])
def test_mixed_precision_trains_like_torch(cls, float_layers):
    torch.manual_seed(3)
    model = cls().half()
    for layer in float_layers:
        getattr(model, layer).float()
    reference = copy.deepcopy(model).float()
    gen = torch.Generator().manual_seed(4)
    training = poptorch.trainingModel(model, poptorch.Options(),
                                      poptorch.optim.SGD(model.parameters(), lr=0.1))
    ref_opt = torch.optim.SGD(reference.parameters(), lr=0.1)
    for _ in range(3):
        x, y = torch.randn(4, 16, generator=gen), torch.randint(0, 4, (4, ), generator=gen)
        out, loss = training(x.half(), y)
        ref_opt.zero_grad()
        _, ref_loss = reference(x, y)
        ref_loss.backward()
        ref_opt.step()
        assert loss.dtype == torch.float32
        assert out.dtype == (torch.float32 if float_layers else torch.float16)
        torch.testing.assert_close(loss, ref_loss.detach(), rtol=RTOL, atol=ATOL)
    for (n, p), (_, q) in zip(model.named_parameters(), reference.named_parameters()):
        layer = n.split(".")[0]
        assert p.dtype == (torch.float32 if layer in float_layers else torch.float16), n
        torch.testing.assert_close(p.detach().float(), q.detach(), rtol=RTOL, atol=ATOL, msg=n)
    # The graph casts to FLOAT where the forward did, and nowhere else.
    graph, _ = _graph_types(training)
    casts = [n for n in graph.node if n.op_type == "Cast"]
    assert [c.attribute[0].i for c in casts] == [onnx.TensorProto.FLOAT], casts


def test_float_input_to_half_model_is_cast_on_the_device():
    model, reference, data = _half_pair("mlp")
    model.eval()
    x, _ = data(4)
    out = poptorch.inferenceModel(model)(x)
    assert out.dtype == torch.float16
    with torch.no_grad():
        torch.testing.assert_close(out.float(), reference(x), rtol=RTOL, atol=ATOL)


class FloatOffset(nn.Module):

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 4)
        self.register_buffer("offset", torch.linspace(-1.0, 1.0, 4))

    def forward(self, x):
        return self.fc(x) + self.offset


@pytest.mark.parametrize("behaviour,dtype", [
    (None, torch.float32),
    (poptorch.HalfFloatCastingBehavior.HalfUpcastToFloat, torch.float32),
    (poptorch.HalfFloatCastingBehavior.FloatDowncastToHalf, torch.float16),
])
def test_half_float_casting(behaviour, dtype):
    torch.manual_seed(5)
    model = FloatOffset()
    model.fc.half()
    reference = copy.deepcopy(model).float()
    x = torch.randn(4, 16)
    options = poptorch.Options()
    if behaviour is not None:
        options.Precision.halfFloatCasting(behaviour)
    # torch's promotion: a float16 tensor plus a float32 one is float32.
    out = poptorch.inferenceModel(model, options)(x.half())
    assert out.dtype == dtype
    torch.testing.assert_close(out.float(), reference(x).detach(), rtol=RTOL, atol=ATOL)
    assert "Precision.halfFloatCasting" not in " ".join(options.notApplying())


def test_half_runs_faster_and_partials_type_applies(tmp_path, monkeypatch):
    """HALF AMP has twice FLOAT's rate on ipu2, and setPartialsType decides the partials' type.
    (Whether HALF partials are also faster depends on the layouts their plans give: a Mk2 tile
    has as many conv units for HALF partials as for FLOAT ones.)"""
    import pva

    def run(half, partials):
        folder = tmp_path / f"{half}-{partials}"
        monkeypatch.setenv("POPLAR_ENGINE_OPTIONS", json.dumps({
            "autoReport.all": "true", "autoReport.directory": str(folder)}))
        model, data = models.make("cnn")
        model.eval()
        x, _ = data(8)
        if half:
            model.half()
            x = x.half()
        options = poptorch.Options().logCycleCount(True)
        if partials is not None:
            options.Precision.setPartialsType(partials)
        inference = poptorch.inferenceModel(model, options)
        inference(x)
        cycles = inference.cycleCount()
        inference.detachFromDevice()
        paths = sorted(glob.glob(str(folder / "**" / "profile.pop"), recursive=True))
        assert paths, "autoReport wrote no profile.pop"
        variables = pva.openReport(paths[0]).compilation.variables
        partial_types = {v.elementType for v in variables if v.name.endswith("/partials")}
        return cycles, partial_types

    in_float, _ = run(False, None)
    in_half, float_partials = run(True, torch.float)
    assert in_half < in_float
    assert float_partials == {"float"}
    _, half_partials = run(True, torch.half)
    assert half_partials == {"half"}


def test_adamw_on_half_weights():
    """AdamW's accumulators are float32 unless accum_type says float16 (PopTorch's default):
    the update is computed in float32 and rounded to the float16 weight, which matches torch.
    With float16 accumulators the whole update is float16: the second moment (1 - beta2) g^2
    of small gradients underflows and torch's eps of 1e-8 rounds to 0 (below float16's
    smallest subnormal, 6e-8), so that variant takes eps 1e-3 and is only checked to train."""
    model, reference, data = _half_pair("mlp")
    training = poptorch.trainingModel(
        model, optimizer=poptorch.optim.AdamW(model.parameters(), lr=1e-2))
    ref_opt = torch.optim.AdamW(reference.parameters(), lr=1e-2)
    for _ in range(2):
        x, y = data(4)
        training(x.half(), y)
        ref_opt.zero_grad()
        reference(x, y)[1].backward()
        ref_opt.step()
    for (n, p), (_, q) in zip(model.named_parameters(), reference.named_parameters()):
        assert p.dtype == torch.float16, n
        torch.testing.assert_close(p.detach().float(), q.detach(), rtol=RTOL, atol=ATOL, msg=n)

    model, _, data = _half_pair("mlp")
    before = copy.deepcopy(model)
    optimizer = poptorch.optim.AdamW(model.parameters(), lr=1e-3, eps=1e-3, loss_scaling=128.0,
                                     accum_type=torch.float16,
                                     first_order_momentum_accum_type=torch.float16,
                                     second_order_momentum_accum_type=torch.float16)
    x, y = data(4)
    _, loss = poptorch.trainingModel(model, optimizer=optimizer)(x.half(), y)
    assert torch.isfinite(loss)
    for (n, p), (_, q) in zip(model.named_parameters(), before.named_parameters()):
        assert p.dtype == torch.float16 and torch.isfinite(p).all(), n
        assert not torch.equal(p, q), n
