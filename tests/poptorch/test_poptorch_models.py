"""The three models of models.py trained and run through poptorch on the simulated IPU against
torch on the CPU: weights after several optimizer steps (device iterations, gradient
accumulation, replicas), outputs of inference, the output modes, and the report that
POPLAR_ENGINE_OPTIONS' autoReport writes."""
import copy
import glob
import json
import os
import subprocess

import pytest
import torch

import poptorch
import models

RTOL, ATOL = 1e-4, 1e-5


def _torch_steps(model, optimizer, x, y, steps, accumulation):
    """torch on the CPU: `steps` optimizer steps, each on `accumulation` micro-batches whose
    gradients are averaged (PopTorch's default reduction); returns the micro-batch losses."""
    micro = x.shape[0] // (steps * accumulation)
    losses = []
    for s in range(steps):
        optimizer.zero_grad()
        for a in range(accumulation):
            i = (s * accumulation + a) * micro
            _, loss = model(x[i:i + micro], y[i:i + micro])
            (loss / accumulation).backward()
            losses.append(loss.item())
        optimizer.step()
    return losses


def _assert_same_weights(model, reference):
    for (name, p), (_, q) in zip(model.named_parameters(), reference.named_parameters()):
        torch.testing.assert_close(p.detach(), q.detach(), rtol=RTOL, atol=ATOL, msg=name)


@pytest.mark.parametrize("name", models.NAMES)
def test_training_matches_torch(name):
    model, data = models.make(name)
    reference = copy.deepcopy(model)
    options = poptorch.Options().deviceIterations(2)
    options.outputMode(poptorch.OutputMode.All)
    training = poptorch.trainingModel(model, options,
                                      poptorch.optim.SGD(model.parameters(), lr=0.05,
                                                         momentum=0.9))
    ref_opt = torch.optim.SGD(reference.parameters(), lr=0.05, momentum=0.9)
    for _ in range(3):
        x, y = data(2 * 4)
        out, losses = training(x, y)
        expected = _torch_steps(reference, ref_opt, x, y, steps=2, accumulation=1)
        assert out.shape[0] == 8
        torch.testing.assert_close(losses, torch.tensor(expected), rtol=RTOL, atol=ATOL)
    _assert_same_weights(model, reference)


@pytest.mark.parametrize("name", models.NAMES)
def test_inference_matches_torch(name):
    model, data = models.make(name)
    model.eval()
    x, _ = data(6)
    with torch.no_grad():
        expected = model(x)
    inference = poptorch.inferenceModel(model, poptorch.Options().deviceIterations(3))
    torch.testing.assert_close(inference(x), expected, rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("iterations,accumulation,replicas",
                         [(1, 1, 1), (3, 1, 1), (1, 4, 1), (2, 3, 1), (2, 2, 2)])
def test_option_combinations(iterations, accumulation, replicas):
    model, data = models.make("mlp")
    reference = copy.deepcopy(model)
    options = poptorch.Options().deviceIterations(iterations).replicationFactor(replicas)
    options.Training.gradientAccumulation(accumulation)
    training = poptorch.trainingModel(model, options,
                                      poptorch.optim.SGD(model.parameters(), lr=0.1))
    x, y = data(iterations * accumulation * replicas * 4)
    _, loss = training(x, y)
    # Replicas train on their own micro-batches; their gradients are averaged like the
    # accumulated ones, so on the CPU they are more accumulated micro-batches per step.
    expected = _torch_steps(reference, torch.optim.SGD(reference.parameters(), lr=0.1), x, y,
                            steps=iterations, accumulation=accumulation * replicas)
    # Final: the last micro-batch's loss (one per replica), among the last step's.
    last_step = torch.tensor(expected[-accumulation * replicas:])
    assert loss.numel() == replicas
    for value in loss.reshape(-1):
        assert torch.isclose(last_step, value, rtol=RTOL, atol=ATOL).any(), (value, last_step)
    _assert_same_weights(model, reference)


@pytest.mark.parametrize("mode,period,expected_rows", [
    (poptorch.OutputMode.All, None, [0, 1, 2, 3]),
    (poptorch.OutputMode.Final, None, [3]),
    (poptorch.OutputMode.EveryN, 2, [1, 3]),
    (poptorch.OutputMode.Sum, None, None),
])
def test_output_modes(mode, period, expected_rows):
    model, data = models.make("mlp")
    model.eval()
    x, _ = data(4 * 2)
    with torch.no_grad():
        expected = model(x).reshape(4, 2, -1)
    options = poptorch.Options().deviceIterations(4).outputMode(mode, period)
    out = poptorch.inferenceModel(model, options)(x)
    if expected_rows is None:
        want = expected.sum(dim=0)
    else:
        want = expected[expected_rows].reshape(-1, expected.shape[-1])
    torch.testing.assert_close(out, want, rtol=RTOL, atol=ATOL)


def test_auto_report_opens(tmp_path, monkeypatch):
    monkeypatch.setenv("POPLAR_ENGINE_OPTIONS", json.dumps({
        "autoReport.all": "true", "autoReport.directory": str(tmp_path)}))
    model, data = models.make("cnn")
    training = poptorch.trainingModel(model, poptorch.Options().deviceIterations(2),
                                      poptorch.optim.SGD(model.parameters(), lr=0.01))
    training(*data(4))
    paths = sorted(glob.glob(str(tmp_path / "**" / "profile.pop"), recursive=True))
    assert paths, "autoReport wrote no profile.pop"
    import pva
    report = pva.openReport(paths[0])
    assert report.compilation.target.numTiles == 1472
    names = {op.debugPath for op in pva.OperationAnalysis(report).operations
             if op.layer == "PopART"}
    # Operations are named after the modules that called them.
    assert any(n.startswith("conv1/") for n in names), sorted(names)[:20]
    assert any(n.startswith("fc/") for n in names), sorted(names)[:20]
    cli = os.environ.get("TILESCOPE_CLI")
    if cli:
        result = subprocess.run([cli, "summary", paths[0]], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name", ["mlp", "cnn"])
def test_inference_over_replicas(name):
    model, data = models.make(name)
    model.eval()
    x, _ = data(2 * 2 * 3)
    with torch.no_grad():
        expected = model(x)
    options = poptorch.Options().deviceIterations(2).replicationFactor(2)
    torch.testing.assert_close(poptorch.inferenceModel(model, options)(x), expected, rtol=RTOL,
                               atol=ATOL)
