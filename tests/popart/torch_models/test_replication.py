"""Replicated PopART sessions (SessionOptions.enableReplicatedGraphs, replicatedGraphCount) on
a simulated device of as many IPUs: each replica takes its slice of every batch (the host arrays
are [batchesPerStep, accumulationFactor, replicas, sample...]), the gradients are reduced across
the replicas (mean or sum, accumulationAndReplicationReductionType) and every replica steps
alike, so training equals torch on the whole batch; anchors come back per replica."""
import copy

import numpy as np
import onnx
import pytest
import torch
from onnx import numpy_helper

import popart

import models

TILES = 8


def _device(ipus):
    return popart.DeviceManager().createIpuModelDevice({"numIPUs": ipus, "tilesPerIPU": TILES})


def _model():
    torch.manual_seed(4)
    return models._distinct(models.WithLoss(models.Mlp(), models._mse))


def _data(samples, seed=4):
    gen = np.random.default_rng(seed)
    return (gen.normal(size=(samples, 16)).astype(np.float32),
            gen.normal(size=(samples, 8)).astype(np.float32))


def _session(model, micro, options, optimizer, batches, tmp_path, ipus):
    x = np.zeros((micro, 16), np.float32)
    t = np.zeros((micro, 8), np.float32)
    path = models.export(copy.deepcopy(model), (x, t), str(tmp_path), "mlp")
    loss = onnx.load(path).graph.output[0].name
    session = popart.TrainingSession(
        fnModel=path, dataFlow=popart.DataFlow(batches, {loss: popart.AnchorReturnType("ALL")}),
        loss=loss, optimizer=optimizer, deviceInfo=_device(ipus), userOptions=options)
    session.prepareDevice()
    session.weightsFromHost()
    return session, loss


def _weights(session, tmp_path):
    path = str(tmp_path / "trained.onnx")
    session.modelToHost(path)
    return {t.name: numpy_helper.to_array(t) for t in onnx.load(path).graph.initializer}


def _torch_steps(model, xs, ts, lr):
    """Plain SGD, one step per (x, t) pair; returns the weights and each step's loss."""
    model = copy.deepcopy(model)
    optimiser = torch.optim.SGD(model.parameters(), lr=lr)
    for x, t in zip(xs, ts):
        optimiser.zero_grad()
        loss, _ = model(torch.from_numpy(x), torch.from_numpy(t))
        loss.backward()
        optimiser.step()
    return {n: p.detach().numpy() for n, p in model.named_parameters()}


def _compare(actual, expected):
    for name, value in expected.items():
        np.testing.assert_allclose(actual[name], value, rtol=2e-4, atol=2e-5, err_msg=name)


def _options(replicas, reduction, accumulation=1):
    options = popart.SessionOptions()
    options.enableReplicatedGraphs = True
    options.replicatedGraphCount = replicas
    options.accumulationAndReplicationReductionType = getattr(popart.ReductionType, reduction)
    if accumulation > 1:
        options.enableGradientAccumulation = True
        options.accumulationFactor = accumulation
    return options


@pytest.mark.parametrize("reduction", ["Mean", "Sum"])
def test_two_replicas_train_as_one_batch(reduction, tmp_path):
    model = _model()
    x, t = _data(4)
    session, loss = _session(model, 2, _options(2, reduction), popart.ConstSGD(0.05), 1,
                             tmp_path, ipus=2)
    anchors = session.initAnchorArrays()
    assert anchors[loss].shape == (2,)
    session.run(popart.PyStepIO({"input0": x.reshape(2, 2, 16), "input1": t.reshape(2, 2, 8)},
                                anchors))
    # Each replica's loss is its own half's; the step is torch's on all four samples (twice the
    # learning rate with the sum of the two replicas' mean gradients).
    for r in range(2):
        expected, _ = copy.deepcopy(model)(torch.from_numpy(x[2 * r:2 * r + 2]),
                                           torch.from_numpy(t[2 * r:2 * r + 2]))
        assert anchors[loss][r] == pytest.approx(float(expected), rel=1e-5)
    lr = 0.05 if reduction == "Mean" else 0.1
    _compare(_weights(session, tmp_path), _torch_steps(model, [x], [t], lr))


def test_replicas_with_accumulation_and_batches_per_step(tmp_path):
    """4 replicas x accumulationFactor 2 x batchesPerStep 2, micro-batches of 1: two optimizer
    steps, each on 8 samples."""
    model = _model()
    x, t = _data(16, seed=5)
    session, loss = _session(model, 1, _options(4, "Mean", accumulation=2), popart.ConstSGD(0.05),
                             2, tmp_path, ipus=4)
    anchors = session.initAnchorArrays()
    assert anchors[loss].shape == (2, 2, 4)
    session.run(popart.PyStepIO({"input0": x.reshape(2, 2, 4, 1, 16),
                                 "input1": t.reshape(2, 2, 4, 1, 8)}, anchors))
    expected = _torch_steps(model, [x[:8], x[8:]], [t[:8], t[8:]], 0.05)
    _compare(_weights(session, tmp_path), expected)


def test_replication_needs_ipus_for_every_replica():
    model = _model()
    x = np.zeros((2, 16), np.float32)
    proto = io_export(model, x)
    options = _options(3, "Mean")
    flow = popart.DataFlow(1, {proto[1]: popart.AnchorReturnType("ALL")})
    with pytest.raises(popart.popart_exception, match="replicatedGraphCount 3 must divide"):
        popart.TrainingSession(fnModel=proto[0], dataFlow=flow, loss=proto[1],
                               optimizer=popart.ConstSGD(0.1), deviceInfo=_device(2),
                               userOptions=options)


def io_export(model, x):
    import io
    buf = io.BytesIO()
    t = np.zeros((x.shape[0], 8), np.float32)
    torch.onnx.export(copy.deepcopy(model), (torch.from_numpy(x), torch.from_numpy(t)), buf,
                      opset_version=models.OPSET, input_names=["input0", "input1"])
    proto = buf.getvalue()
    return proto, onnx.load_from_string(proto).graph.output[0].name
