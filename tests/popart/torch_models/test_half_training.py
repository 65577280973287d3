"""FLOAT16 models trained through popart: a torch-exported MLP whose inputs, weights and
constants are made FLOAT16 (as PopTorch hands a model.half() to PopART), trained a few steps
with SGD (velocity in the weights' type) and Adam (FLOAT accumulators, PopART's default, or
FLOAT16 ones), against torch.optim on the CPU in float32 from the same rounded weights.

Tolerance: float16's unit roundoff is 2^-11 (4.9e-4); the device rounds every product,
gradient and update to it, so weights after three steps differ from float32 by a few units in
the last place of values below 0.5: rtol 1e-2, atol 2e-3."""
import copy

import numpy as np
import onnx
import pytest
import torch
from onnx import numpy_helper

import popart

import models
from test_optimizers import _data, _model, _torch_train, _weights, _changed

TILES = 16
STEPS = 3
RTOL, ATOL = 1e-2, 2e-3


def _to_half(proto):
    """`proto` with its FLOAT inputs, initializers, constants and casts made FLOAT16."""
    f32, f16 = onnx.TensorProto.FLOAT, onnx.TensorProto.FLOAT16
    graph = proto.graph
    for v in list(graph.input) + list(graph.output):
        if v.type.tensor_type.elem_type == f32:
            v.type.tensor_type.elem_type = f16
    for k, init in enumerate(graph.initializer):
        if init.data_type == f32:
            value = numpy_helper.to_array(init).astype(np.float16)
            graph.initializer[k].CopyFrom(numpy_helper.from_array(value, init.name))
    for node in graph.node:
        for a in node.attribute:
            if node.op_type == "Constant" and a.name == "value" and a.t.data_type == f32:
                value = numpy_helper.to_array(a.t).astype(np.float16)
                a.t.CopyFrom(numpy_helper.from_array(value, a.t.name))
            if node.op_type == "Cast" and a.name == "to" and a.i == f32:
                a.i = f16
    del graph.value_info[:]
    return proto


def _half_model():
    """The test MLP with float16-rounded weights (held in float32 for torch)."""
    model = _model()
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(p.half().float())
    return model


def _train_half(model, optimizer, xs, ts, tmp_path):
    x = np.zeros(xs.shape[1:], np.float32)
    t = np.zeros(ts.shape[1:], np.float32)
    path = models.export(copy.deepcopy(model), (x, t), str(tmp_path), "mlp")
    proto = _to_half(onnx.load(path))
    loss = proto.graph.output[0].name
    flow = popart.DataFlow(1, {loss: popart.AnchorReturnType("ALL")})
    device = popart.DeviceManager().createIpuModelDevice({"numIPUs": 1, "tilesPerIPU": TILES})
    session = popart.TrainingSession(fnModel=proto.SerializeToString(), dataFlow=flow, loss=loss,
                                     optimizer=optimizer, deviceInfo=device,
                                     userOptions=popart.SessionOptions())
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    assert anchors[loss].dtype == np.float16
    for i in range(len(xs)):
        session.run(popart.PyStepIO({"input0": xs[i].astype(np.float16),
                                     "input1": ts[i].astype(np.float16)}, anchors))
        assert np.isfinite(anchors[loss]).all()
    return _weights(session, tmp_path)


CASES = {
    "sgd_momentum": (
        lambda: popart.SGD({"defaultLearningRate": (0.05, True), "defaultMomentum": (0.9, True),
                            "lossScaling": (64.0, True)}),
        lambda m: torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9)),
    "adam_float_accumulators": (
        lambda: popart.Adam({"defaultLearningRate": (0.01, False), "defaultEps": (1e-8, True)},
                            popart.AdamMode.Adam, popart.WeightDecayMode.Decay),
        lambda m: torch.optim.AdamW(m.parameters(), lr=0.01, eps=1e-8, weight_decay=0.0)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_half_weights_train_like_torch(case, tmp_path):
    make_popart, make_torch = CASES[case]
    model = _half_model()
    xs, ts = _data(4, STEPS)
    trained = _train_half(model, make_popart(), xs, ts, tmp_path)
    expected = _torch_train(model, make_torch, xs, ts)
    for name, value in expected.items():
        assert trained[name].dtype == np.float16, name
        np.testing.assert_allclose(trained[name].astype(np.float32), value, rtol=RTOL, atol=ATOL,
                                   err_msg=name)
    _changed(model, {n: v.astype(np.float32) for n, v in trained.items()})


def test_adam_float16_accumulators_train(tmp_path):
    """All of Adam in float16: only that it trains (torch's eps would round to 0 in float16)."""
    model = _half_model()
    xs, ts = _data(4, STEPS)
    f16 = popart.DataType.FLOAT16
    optimizer = popart.Adam({"defaultLearningRate": (0.01, True), "defaultEps": (1e-3, True)},
                            popart.AdamMode.Adam, popart.WeightDecayMode.Decay, f16, f16, f16)
    trained = _train_half(model, optimizer, xs, ts, tmp_path)
    assert all(np.isfinite(v).all() for v in trained.values())
    _changed(model, {n: v.astype(np.float32) for n, v in trained.items()})


def test_accumulators_of_different_types_are_refused():
    with pytest.raises(popart.popart_exception, match="accumulators of different types"):
        popart.Adam({"defaultLearningRate": (0.01, True)}, popart.AdamMode.Adam,
                    popart.WeightDecayMode.Decay, popart.DataType.FLOAT,
                    popart.DataType.FLOAT16, popart.DataType.FLOAT)
    with pytest.raises(popart.popart_exception, match="accumulator type INT32"):
        popart.Adaptive({"defaultLearningRate": (0.01, True)}, popart.AdaptiveMode.RMSProp,
                        popart.WeightDecayMode.Decay, popart.DataType.INT32,
                        popart.DataType.INT32, popart.DataType.INT32, popart.DataType.INT32)
