"""PopART's optimizers (SGD, Adam and its modes, Adaptive and its modes), per-weight values,
updateOptimizerFromHost and gradient accumulation, each checked over a few training steps of a
torch-exported MLP against torch.optim on the CPU, or, where torch has no such optimizer or its
formula differs (dampening on the first step, AdaMax's eps, LAMB), against the update written
out here from PopART's documented formula (LAMB: You et al. 2020 with PopART's phi)."""
import copy

import numpy as np
import onnx
import pytest
import torch
from onnx import numpy_helper

import popart

import models

TILES = 16
STEPS = 3


def _device():
    return popart.DeviceManager().createIpuModelDevice({"numIPUs": 1, "tilesPerIPU": TILES})


def _data(batch, steps):
    gen = np.random.default_rng(1)
    xs = gen.normal(size=(steps, batch, 16)).astype(np.float32)
    ts = gen.normal(size=(steps, batch, 8)).astype(np.float32)
    return xs, ts


def _model():
    torch.manual_seed(3)
    return models._distinct(models.WithLoss(models.Mlp(), models._mse))


def _export(model, batch, tmp_path, name="mlp"):
    x = np.zeros((batch, 16), np.float32)
    t = np.zeros((batch, 8), np.float32)
    path = models.export(copy.deepcopy(model), (x, t), str(tmp_path), name)
    return path, onnx.load(path).graph.output[0].name


def _weights(session, tmp_path):
    trained = str(tmp_path / "trained.onnx")
    session.modelToHost(trained)
    return {t.name: numpy_helper.to_array(t) for t in onnx.load(trained).graph.initializer}


def _popart_train(model, optimizer, xs, ts, tmp_path, options=None, updates=None):
    """Trains on popart, one run per step (each run takes xs[i], ts[i]); `updates` maps a step
    index to an optimizer handed to updateOptimizerFromHost before that step."""
    accumulating = options is not None and options.enableGradientAccumulation
    micro = xs.shape[-2] // options.accumulationFactor if accumulating else xs.shape[-2]
    path, loss = _export(model, micro, tmp_path)
    flow = popart.DataFlow(1, {loss: popart.AnchorReturnType("ALL")})
    session = popart.TrainingSession(fnModel=path, dataFlow=flow, loss=loss, optimizer=optimizer,
                                     deviceInfo=_device(),
                                     userOptions=options or popart.SessionOptions())
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    for i in range(len(xs)):
        if updates and i in updates:
            session.updateOptimizerFromHost(updates[i])
        session.run(popart.PyStepIO({"input0": xs[i], "input1": ts[i]}, anchors))
    return _weights(session, tmp_path)


def _torch_train(model, make_optimizer, xs, ts, updates=None):
    model = copy.deepcopy(model)
    optimiser = make_optimizer(model)
    for i in range(len(xs)):
        if updates and i in updates:
            updates[i](optimiser)
        optimiser.zero_grad()
        loss, _ = model(torch.from_numpy(xs[i]), torch.from_numpy(ts[i]))
        loss.backward()
        optimiser.step()
    return {n: p.detach().numpy().copy() for n, p in model.named_parameters()}


def _manual_train(model, update, xs, ts):
    """Trains with `update(name, w, g, state, step)` (numpy, returns the new weight) applied to
    torch's gradients: the reference for formulas torch.optim lacks."""
    model = copy.deepcopy(model)
    params = dict(model.named_parameters())
    states = {n: {} for n in params}
    for i in range(len(xs)):
        for p in params.values():
            p.grad = None
        loss, _ = model(torch.from_numpy(xs[i]), torch.from_numpy(ts[i]))
        loss.backward()
        with torch.no_grad():
            for n, p in params.items():
                w = p.detach().numpy().astype(np.float64)
                g = p.grad.numpy().astype(np.float64)
                p.copy_(torch.from_numpy(update(n, w, g, states[n], i + 1).astype(np.float32)))
    return {n: p.detach().numpy().copy() for n, p in params.items()}


def _compare(actual, expected, rtol=2e-4, atol=2e-5):
    assert expected
    for name, value in expected.items():
        assert name in actual, f"{name} not among the trained model's initializers"
        np.testing.assert_allclose(actual[name], value, rtol=rtol, atol=atol, err_msg=name)


def _changed(model, trained):
    """The check is not vacuous: training moved every weight."""
    for n, p in model.named_parameters():
        assert not np.allclose(trained[n], p.detach().numpy()), f"{n} did not change"


TORCH_CASES = {
    "sgd_weight_decay": (
        lambda: popart.SGD({"defaultLearningRate": (0.05, False),
                            "defaultWeightDecay": (0.01, True)}),
        lambda m: torch.optim.SGD(m.parameters(), lr=0.05, weight_decay=0.01)),
    "sgd_momentum_loss_scaling_velocity_scaling": (
        lambda: popart.SGD({"defaultLearningRate": (0.05, True), "defaultMomentum": (0.9, True),
                            "defaultVelocityScaling": (4.0, True), "lossScaling": (128.0, True),
                            "defaultWeightDecay": (0.01, True)}),
        lambda m: torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9, weight_decay=0.01)),
    "sgd_nesterov": (
        lambda: popart.SGD({"defaultLearningRate": (0.05, True), "defaultMomentum": (0.8, False),
                            "nesterov": (1.0, True)}),
        lambda m: torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.8, nesterov=True)),
    "adam_l2": (
        lambda: popart.Adam({"defaultLearningRate": (0.01, False),
                             "defaultWeightDecay": (0.01, True), "defaultEps": (1e-8, True)},
                            popart.AdamMode.Adam,
                            popart.WeightDecayMode.L2Regularization),
        lambda m: torch.optim.Adam(m.parameters(), lr=0.01, weight_decay=0.01, eps=1e-8)),
    "adamw": (
        lambda: popart.Adam({"defaultLearningRate": (0.01, True), "defaultWeightDecay": (0.1, True),
                             "defaultBeta1": (0.8, True), "defaultBeta2": (0.99, True),
                             "defaultEps": (1e-8, True), "lossScaling": (16.0, True)},
                            popart.AdamMode.Adam, popart.WeightDecayMode.Decay),
        lambda m: torch.optim.AdamW(m.parameters(), lr=0.01, weight_decay=0.1, betas=(0.8, 0.99),
                                    eps=1e-8)),
    "rmsprop_momentum": (
        lambda: popart.Adaptive({"defaultLearningRate": (0.01, False), "defaultAlpha": (0.9, True),
                                 "defaultMomentum": (0.5, True), "defaultEps": (1e-8, True),
                                 "defaultWeightDecay": (0.01, True)}, popart.AdaptiveMode.RMSProp,
                                popart.WeightDecayMode.L2Regularization),
        lambda m: torch.optim.RMSprop(m.parameters(), lr=0.01, alpha=0.9, momentum=0.5, eps=1e-8,
                                      weight_decay=0.01)),
    "centered_rmsprop": (
        lambda: popart.Adaptive({"defaultLearningRate": (0.01, True), "defaultAlpha": (0.9, True),
                                 "defaultEps": (1e-6, True)}, popart.AdaptiveMode.CenteredRMSProp),
        lambda m: torch.optim.RMSprop(m.parameters(), lr=0.01, alpha=0.9, eps=1e-6, centered=True)),
    "adagrad": (
        lambda: popart.Adaptive({"defaultLearningRate": (0.1, True), "defaultEps": (1e-10, True)},
                                popart.AdaptiveMode.AdaGrad),
        lambda m: torch.optim.Adagrad(m.parameters(), lr=0.1, eps=1e-10)),
    "adadelta": (
        lambda: popart.Adaptive({"defaultLearningRate": (1.0, True), "defaultAlpha": (0.9, True),
                                 "defaultEps": (1e-6, True)}, popart.AdaptiveMode.AdaDelta),
        lambda m: torch.optim.Adadelta(m.parameters(), lr=1.0, rho=0.9, eps=1e-6)),
}


@pytest.mark.parametrize("name", sorted(TORCH_CASES))
def test_optimizer_matches_torch(name, tmp_path):
    make_popart, make_torch = TORCH_CASES[name]
    model = _model()
    xs, ts = _data(4, STEPS)
    trained = _popart_train(model, make_popart(), xs, ts, tmp_path)
    _changed(model, trained)
    _compare(trained, _torch_train(model, make_torch, xs, ts))


def _sgd_dampening(lr, mm, dp, wd):
    def update(name, w, g, s, t):
        v = s.get("v", np.zeros_like(w))
        v = mm * v + (1 - dp) * (g + wd * w)  # PopART: v starts at 0, dampened from step 1
        s["v"] = v
        return w - lr * v
    return update


def _adamax(lr, b1, b2, eps):
    def update(name, w, g, s, t):
        m = b1 * s.get("m", 0) + (1 - b1) * g
        v = np.maximum(b2 * s.get("v", np.zeros_like(w)), np.abs(g))
        s["m"], s["v"] = m, v
        return w - lr * (m / (1 - b1**t)) / (v + eps)
    return update


def _lamb(lr, b1, b2, eps, wd, mwn, bias):
    def update(name, w, g, s, t):
        m = b1 * s.get("m", 0) + (1 - b1) * g
        v = b2 * s.get("v", 0) + (1 - b2) * g * g
        s["m"], s["v"] = m, v
        mc, vc = (m / (1 - b1**t), v / (1 - b2**t)) if bias else (m, v)
        x = mc / (np.sqrt(vc) + eps) + wd * w
        r1, r2 = min(np.linalg.norm(w), mwn), np.linalg.norm(x)
        ratio = r1 / r2 if r1 > 0 and r2 > 0 else 1.0
        return w - ratio * lr * x
    return update


MANUAL_CASES = {
    "sgd_dampening": (
        lambda: popart.SGD({"defaultLearningRate": (0.05, True), "defaultMomentum": (0.9, True),
                            "defaultDampening": (0.3, True), "defaultWeightDecay": (0.01, True)}),
        _sgd_dampening(0.05, 0.9, 0.3, 0.01)),
    "adamax": (
        lambda: popart.Adam({"defaultLearningRate": (0.01, True), "defaultEps": (1e-6, True)},
                            popart.AdamMode.AdaMax),
        _adamax(0.01, 0.9, 0.999, 1e-6)),
    "lamb": (
        lambda: popart.Adam({"defaultLearningRate": (0.01, True),
                             "defaultWeightDecay": (0.01, True), "defaultEps": (1e-6, True),
                             "defaultMaxWeightNorm": (0.5, True)},
                            popart.AdamMode.Lamb),
        _lamb(0.01, 0.9, 0.999, 1e-6, 0.01, 0.5, True)),
    "lamb_no_bias": (
        lambda: popart.Adam({"defaultLearningRate": (0.01, False), "defaultEps": (1e-6, True)},
                            popart.AdamMode.LambNoBias),
        _lamb(0.01, 0.9, 0.999, 1e-6, 0.0, 10.0, False)),
}


@pytest.mark.parametrize("name", sorted(MANUAL_CASES))
def test_optimizer_matches_formula(name, tmp_path):
    make_popart, update = MANUAL_CASES[name]
    model = _model()
    xs, ts = _data(4, STEPS)
    trained = _popart_train(model, make_popart(), xs, ts, tmp_path)
    _changed(model, trained)
    _compare(trained, _manual_train(model, update, xs, ts))


def test_insert_specific_and_update_from_host(tmp_path):
    """fc1's weight has its own learning rate (insertSpecific); the learning rates change
    between steps through updateOptimizerFromHost; torch does the same with parameter groups."""
    model = _model()
    xs, ts = _data(4, STEPS)

    def make(lr, lr_fc1):
        opt = popart.SGD({"defaultLearningRate": (lr, False), "defaultMomentum": (0.5, True)})
        opt.insertSpecific("model.fc1.weight", {"learningRate": (lr_fc1, False)})
        return opt

    trained = _popart_train(model, make(0.05, 0.2), xs, ts, tmp_path, updates={2: make(0.01, 0.1)})

    def torch_optimiser(m):
        special = [p for n, p in m.named_parameters() if n == "model.fc1.weight"]
        rest = [p for n, p in m.named_parameters() if n != "model.fc1.weight"]
        return torch.optim.SGD([{"params": rest}, {"params": special, "lr": 0.2}], lr=0.05,
                               momentum=0.5)

    def lower(o):
        o.param_groups[0]["lr"], o.param_groups[1]["lr"] = 0.01, 0.1

    _compare(trained, _torch_train(model, torch_optimiser, xs, ts, updates={2: lower}))


def test_update_from_host_refuses_const_and_mode_changes(tmp_path):
    model = _model()
    path, loss = _export(model, 4, tmp_path)
    session = popart.TrainingSession(
        fnModel=path, dataFlow=popart.DataFlow(1, {loss: popart.AnchorReturnType("ALL")}),
        loss=loss, optimizer=popart.Adam({"defaultLearningRate": (0.01, False)}),
        deviceInfo=_device())
    session.prepareDevice()
    with pytest.raises(popart.popart_exception, match="mode"):
        session.updateOptimizerFromHost(
            popart.Adam({"defaultLearningRate": (0.01, False)}, popart.AdamMode.Lamb))
    with pytest.raises(popart.popart_exception, match="beta1"):
        session.updateOptimizerFromHost(
            popart.Adam({"defaultLearningRate": (0.01, False), "defaultBeta1": (0.5, True)}))


def test_bad_optimizer_values_are_refused():
    with pytest.raises(popart.popart_exception, match="defaultAlpah"):
        popart.Adaptive({"defaultAlpah": (0.9, True)})
    with pytest.raises(popart.popart_exception, match="velocityScaling"):
        popart.SGD({"defaultLearningRate": (0.1, True), "defaultMomentum": (0.9, True),
                    "defaultVelocityScaling": (0.0, True)})
    with pytest.raises(popart.popart_exception, match="nesterov needs a momentum"):
        popart.SGD({"defaultLearningRate": (0.1, True), "nesterov": (1.0, True)})
    with pytest.raises(popart.popart_exception, match="rmspropTFVariant"):
        popart.Adaptive({}, popart.AdaptiveMode.RMSProp, rmsprop_tf_variant=True)


@pytest.mark.parametrize("reduction", ["Mean", "Sum"])
def test_gradient_accumulation_equals_one_big_batch(reduction, tmp_path):
    """Accumulating 4 micro-batches of 2 with the Mean reduction is one step on the batch of 8
    (the loss is a mean over the batch); with Sum, the gradient is 4 times as large, which SGD
    without momentum turns into a 4 times larger learning rate."""
    model = _model()
    xs, ts = _data(8, 2)
    options = popart.SessionOptions()
    options.enableGradientAccumulation = True
    options.accumulationFactor = 4
    options.accumulationAndReplicationReductionType = getattr(popart.ReductionType, reduction)
    trained = _popart_train(model, popart.SGD({"defaultLearningRate": (0.05, True)}), xs, ts,
                            tmp_path, options=options)
    lr = 0.05 if reduction == "Mean" else 0.2
    _compare(trained, _torch_train(model, lambda m: torch.optim.SGD(m.parameters(), lr=lr), xs, ts))


def test_batches_per_step_with_accumulation_equals_big_batches(tmp_path):
    """batchesPerStep 2 x accumulationFactor 2 in one run: two optimizer steps, each on the
    4 samples of its two micro-batches; the loss anchor returns every micro-batch's loss."""
    model = _model()
    xs, ts = _data(4, 2)
    path, loss = _export(model, 2, tmp_path)
    options = popart.SessionOptions()
    options.enableGradientAccumulation = True
    options.accumulationFactor = 2
    options.accumulationAndReplicationReductionType = popart.ReductionType.Mean
    session = popart.TrainingSession(
        fnModel=path, dataFlow=popart.DataFlow(2, {loss: popart.AnchorReturnType("ALL")}),
        loss=loss, optimizer=popart.Adam({"defaultLearningRate": (0.01, True)}),
        deviceInfo=_device(), userOptions=options)
    session.prepareDevice()
    session.weightsFromHost()
    anchors = session.initAnchorArrays()
    assert anchors[loss].shape == (2, 2)
    session.run(popart.PyStepIO(
        {"input0": xs.reshape(2, 2, 2, 16), "input1": ts.reshape(2, 2, 2, 8)}, anchors))
    expected = _torch_train(model, lambda m: torch.optim.Adam(m.parameters(), lr=0.01, eps=1e-6),
                            xs, ts)
    _compare(_weights(session, tmp_path), expected)
