"""poptorch's surface as PopTorch's users call it: Options and what is recorded as not
applying, DataLoader's combined batch and modes, the optimizers against torch's, weights copied
back when the host reads them, attach/detach, compile, blocks, identity_loss and other losses,
set_available_memory, ipu_print_tensor, and the errors naming what is wrong."""
import copy
import json
import logging

import pytest
import torch
from torch import nn

import poptorch
import models

RTOL, ATOL = 1e-4, 1e-5


def _same(a, b):
    torch.testing.assert_close(a, b, rtol=RTOL, atol=ATOL)


# --- Options -------------------------------------------------------------------------------------
def test_options_setters_chain_and_record():
    opts = poptorch.Options().deviceIterations(4).replicationFactor(2).randomSeed(7)
    opts.Training.gradientAccumulation(3)
    opts.Precision.setPartialsType(torch.half)
    opts.setAvailableMemoryProportion({"IPU0": 0.4})
    opts.Jit.traceModel(True)
    opts.anchorMode(poptorch.AnchorMode.EveryN, 2)
    assert (opts.device_iterations, opts.replication_factor, opts.random_seed) == (4, 2, 7)
    assert opts.Training.gradient_accumulation == 3
    assert opts.Precision.partials_type == "half"
    assert opts.available_memory_proportion == {0: 0.4}
    assert opts.output_mode == poptorch.OutputMode.EveryN and opts.output_return_period == 2
    assert opts.notApplying() == {}
    opts.autoRoundNumIPUs(True).TensorLocations.setOptimizerLocation("x")
    assert set(opts.notApplying()) == {"autoRoundNumIPUs", "TensorLocations.setOptimizerLocation"}


@pytest.mark.parametrize("call,message", [
    (lambda o: o.deviceIterations(0), "deviceIterations"),
    (lambda o: o.outputMode(poptorch.OutputMode.EveryN), "output_return_period"),
    (lambda o: o.setAvailableMemoryProportion({"GPU0": 0.5}), "IPU<n>"),
    (lambda o: o.setAvailableMemoryProportion({"IPU0": 1.5}), "(0, 1]"),
    (lambda o: o.Precision.setPartialsType(torch.int32), "setPartialsType"),
    (lambda o: o.Training.gradientAccumulation(-1), "gradientAccumulation"),
    (lambda o: o.noSuchOption(1), "noSuchOption"),
])
def test_bad_options_are_named(call, message):
    with pytest.raises((ValueError, AttributeError), match=message.replace("(", r"\(").replace(
            "[", r"\[").replace("]", r"\]")):
        call(poptorch.Options())


def test_not_applying_options_warn_by_name(caplog, tmp_path, monkeypatch):
    monkeypatch.setenv("POPTORCH_CACHE_DIR", str(tmp_path))
    opts = poptorch.Options().enableStableNorm(True)
    model, data = models.make("mlp")
    model.eval()
    logger = logging.getLogger("poptorch")
    logger.addHandler(caplog.handler)  # poptorch's logger does not propagate to the root
    try:
        poptorch.inferenceModel(model, opts)(data(2)[0])
    finally:
        logger.removeHandler(caplog.handler)
    text = caplog.text
    assert "enableStableNorm" in text
    assert "enableExecutableCaching" in text
    assert opts.executable_cache_dir == str(tmp_path)


def test_popart_options_and_engine_options_reach_the_session(tmp_path):
    opts = poptorch.Options().logDir(str(tmp_path))
    opts._Popart.set("enableOutlining", False)
    opts._Popart.setEngineOptions({"debug.instrument": "true"})
    model, data = models.make("mlp")
    model.eval()
    inference = poptorch.inferenceModel(model, opts)
    inference(data(2)[0])
    assert inference._session_options(inference._lowered).engineOptions == {
        "debug.instrument": "true"}
    assert inference._session_options(inference._lowered).logDir == str(tmp_path)


# --- DataLoader ----------------------------------------------------------------------------------
class _Squares(torch.utils.data.Dataset):

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return torch.tensor([float(i)]), i * i


def test_dataloader_combined_batch():
    opts = poptorch.Options().deviceIterations(3).replicationFactor(2)
    opts.Training.gradientAccumulation(2)
    loader = poptorch.DataLoader(opts, _Squares(100), batch_size=2)
    assert loader.combinedBatchSize == 24
    batches = list(loader)
    assert len(batches) == 4  # drop_last: 100 // 24
    x, y = batches[1]
    assert x.shape == (24, 1) and torch.equal(y, (x[:, 0]**2).long())


@pytest.mark.parametrize("mode", [poptorch.DataLoaderMode.Async,
                                  poptorch.DataLoaderMode.AsyncRebatched])
def test_dataloader_async_modes_give_the_same_batches(mode):
    opts = poptorch.Options().deviceIterations(2)
    sync = list(poptorch.DataLoader(opts, _Squares(20), batch_size=3))
    loaded = list(poptorch.DataLoader(opts, _Squares(20), batch_size=3, mode=mode,
                                      num_workers=2))
    assert len(sync) == len(loaded) == 3
    for (a, b), (c, d) in zip(sync, loaded):
        assert torch.equal(a, c) and torch.equal(b, d)


def test_asynchronous_data_accessor_stops_early_and_reraises():
    accessor = poptorch.AsynchronousDataAccessor(
        poptorch.DataLoader(poptorch.Options(), _Squares(50), batch_size=5))
    for i, _ in enumerate(accessor):
        if i == 1:
            break

    class Broken(_Squares):

        def __getitem__(self, i):
            raise KeyError(f"sample {i} is missing")

    with pytest.raises(KeyError, match="sample 0"):
        list(poptorch.AsynchronousDataAccessor(
            poptorch.DataLoader(poptorch.Options(), Broken(10), batch_size=5)))


def test_dataloader_too_small_is_named():
    with pytest.raises(poptorch.Error, match="combined batch of 40"):
        poptorch.DataLoader(poptorch.Options().deviceIterations(10), _Squares(30), batch_size=4)


# --- optimizers ----------------------------------------------------------------------------------
OPTIMIZERS = {
    "SGD nesterov wd": (lambda p: poptorch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True,
                                                     weight_decay=0.01),
                        lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True,
                                                  weight_decay=0.01)),
    "torch SGD": (lambda p: torch.optim.SGD(p, lr=0.1), lambda p: torch.optim.SGD(p, lr=0.1)),
    "Adam": (lambda p: poptorch.optim.Adam(p, lr=0.01, weight_decay=0.01),
             lambda p: torch.optim.Adam(p, lr=0.01, weight_decay=0.01)),
    "AdamW": (lambda p: poptorch.optim.AdamW(p, lr=0.01, weight_decay=0.05),
              lambda p: torch.optim.AdamW(p, lr=0.01, weight_decay=0.05)),
    "RMSprop": (lambda p: poptorch.optim.RMSprop(p, lr=0.01, momentum=0.5),
                lambda p: torch.optim.RMSprop(p, lr=0.01, momentum=0.5)),
    "LAMB": (lambda p: poptorch.optim.LAMB(p, lr=0.01), lambda p: poptorch.optim.LAMB(p, lr=0.01)),
}


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_optimizer_matches_torch(name):
    make_ipu, make_cpu = OPTIMIZERS[name]
    model, data = models.make("mlp")
    reference = copy.deepcopy(model)
    training = poptorch.trainingModel(model, poptorch.Options().deviceIterations(3),
                                      make_ipu(model.parameters()))
    cpu = make_cpu(reference.parameters())
    for _ in range(2):
        x, y = data(12)
        training(x, y)
        for i in range(3):
            cpu.zero_grad()
            reference(x[4 * i:4 * i + 4], y[4 * i:4 * i + 4])[1].backward()
            cpu.step()
    for p, q in zip(model.parameters(), reference.parameters()):
        _same(p.detach(), q.detach())


def test_param_groups_and_learning_rate_changes():
    model, data = models.make("mlp")
    reference = copy.deepcopy(model)

    def groups(m):
        return [{"params": m.fc1.parameters(), "lr": 0.2}, {"params": m.fc2.parameters()}]

    optimizer = poptorch.optim.SGD(groups(model), lr=0.05)
    cpu = torch.optim.SGD(groups(reference), lr=0.05)
    training = poptorch.trainingModel(model, optimizer=optimizer)
    for step in range(3):
        if step == 2:  # as a scheduler would, then handed over as PopTorch's users do
            for o in (optimizer, cpu):
                o.param_groups[1]["lr"] = 0.5
            training.setOptimizer(optimizer)
        x, y = data(4)
        training(x, y)
        cpu.zero_grad()
        reference(x, y)[1].backward()
        cpu.step()
    for p, q in zip(model.parameters(), reference.parameters()):
        _same(p.detach(), q.detach())


def test_unsupported_optimizer_is_named():
    model, data = models.make("mlp")
    with pytest.raises(poptorch.Error, match="Adagrad"):
        poptorch.trainingModel(model, optimizer=torch.optim.Adagrad(model.parameters()))(*data(1))


# --- weights between host and device -------------------------------------------------------------
def test_weights_come_back_when_the_host_reads_them():
    model, data = models.make("mlp")
    before = model.fc1.weight.detach().clone()
    training = poptorch.trainingModel(model, optimizer=torch.optim.SGD(model.parameters(), lr=0.5))
    training(*data(4))
    # The device trained; reading a parameter, the state dict or named_parameters copies back.
    assert not torch.equal(model.fc1.weight, before)
    state = model.state_dict()
    assert torch.equal(state["fc1.weight"], model.fc1.weight.detach())
    training(*data(4))
    after_two = dict(model.named_parameters())["fc2.bias"].detach().clone()
    training.copyWeightsToHost()
    assert torch.equal(after_two, model.fc2.bias.detach())
    assert type(state["fc1.weight"]) is torch.Tensor


def test_inference_model_follows_training_and_host_changes():
    model, data = models.make("mlp")
    training = poptorch.trainingModel(model, optimizer=torch.optim.SGD(model.parameters(), lr=0.5))
    inference = poptorch.inferenceModel(model)
    x, y = data(4)
    training(x, y)
    with torch.no_grad():
        expected = model(x)
    _same(inference(x), expected)
    training(x, y)  # trained again on the device: the inference model must see it
    with torch.no_grad():
        expected = model(x)
    _same(inference(x), expected)
    with torch.no_grad():
        model.fc2.bias.add_(1.0)  # changed on the host
    _same(inference(x), expected + 1.0)


def test_copy_weights_to_device_and_load_state_dict():
    model, data = models.make("mlp")
    model.eval()
    inference = poptorch.inferenceModel(model)
    x, _ = data(2)
    inference(x)
    saved = copy.deepcopy(model.state_dict())
    with torch.no_grad():
        for p in model.parameters():
            p.zero_()
    inference.copyWeightsToDevice()
    assert torch.count_nonzero(inference(x)) == 0
    inference.load_state_dict(saved)
    with torch.no_grad():
        _same(inference(x), model(x))


def test_detach_attach_and_compile():
    model, data = models.make("mlp")
    reference = copy.deepcopy(model)
    training = poptorch.trainingModel(model, optimizer=torch.optim.SGD(model.parameters(), lr=0.1))
    cpu = torch.optim.SGD(reference.parameters(), lr=0.1)
    x, y = data(4)
    assert not training.isCompiled()
    training.compile(x, y)
    assert training.isCompiled() and training.isAttachedToDevice()
    for step in range(3):
        training(x, y)
        cpu.zero_grad()
        reference(x, y)[1].backward()
        cpu.step()
        if step == 0:
            training.detachFromDevice()
            assert not training.isAttachedToDevice()
            with pytest.raises(poptorch.Error, match="not attached"):
                training.detachFromDevice()
            training.attachToDevice()
        if step == 1:
            training.detachFromDevice()  # the next call attaches again
    assert training.isAttachedToDevice()
    for p, q in zip(model.parameters(), reference.parameters()):
        _same(p.detach(), q.detach())


def test_outputs_refuse_backward_and_bad_batches_are_named():
    model, data = models.make("mlp")
    training = poptorch.trainingModel(model, poptorch.Options().deviceIterations(2))
    _, loss = training(*data(4))
    with pytest.raises(poptorch.Error, match="backward"):
        loss.backward()
    with pytest.raises(poptorch.Error, match="multiple of device iterations"):
        training(*data(3))


# --- ops -----------------------------------------------------------------------------------------
class _CustomLoss(nn.Module):

    def __init__(self, reduction):
        super().__init__()
        self.fc = nn.Linear(8, 8)
        self.reduction = reduction

    def forward(self, x, target):
        out = self.fc(x)
        if self.reduction == "mse":
            return out, nn.functional.mse_loss(out, target)
        if self.reduction == "l1":
            return out, nn.functional.l1_loss(out, target, reduction="sum")
        if self.reduction == "bce":
            return out, nn.functional.binary_cross_entropy_with_logits(out, torch.sigmoid(target))
        return out, poptorch.identity_loss((out - target)**4, reduction=self.reduction)


@pytest.mark.parametrize("reduction", ["mean", "sum", "mse", "l1", "bce"])
def test_identity_loss_and_torch_losses(reduction):
    torch.manual_seed(3)
    model = _CustomLoss(reduction)
    reference = copy.deepcopy(model)
    training = poptorch.trainingModel(model, optimizer=torch.optim.SGD(model.parameters(),
                                                                       lr=0.01))
    x, t = torch.randn(4, 8), torch.randn(4, 8)
    _, loss = training(x, t)
    cpu = torch.optim.SGD(reference.parameters(), lr=0.01)
    _, expected = reference(x, t)
    expected.backward()
    cpu.step()
    _same(loss, expected.detach())
    for p, q in zip(model.parameters(), reference.parameters()):
        _same(p.detach(), q.detach())


def test_identity_loss_on_the_cpu_and_bad_reduction():
    x = torch.arange(4.0)
    assert poptorch.identity_loss(x, "sum").item() == 6.0
    assert poptorch.identity_loss(x, "mean").item() == 1.5
    with pytest.raises(poptorch.Error, match="'max'"):
        poptorch.identity_loss(x, "max")


class _Blocks(nn.Module):

    def __init__(self):
        super().__init__()
        self.a = nn.Linear(8, 8)
        self.b = poptorch.BeginBlock(nn.Linear(8, 8), "second", ipu_id=1)
        self.c = nn.Linear(8, 4)

    def forward(self, x):
        x = torch.relu(self.a(x))
        x = torch.relu(self.b(x))
        with poptorch.Block("third", ipu_id=2):
            return self.c(x)


def test_blocks_place_ops_on_ipus():
    torch.manual_seed(0)
    model = _Blocks().eval()
    x = torch.randn(2, 8)
    with torch.no_grad():
        expected = model(x)
    inference = poptorch.inferenceModel(model)
    _same(inference(x), expected)
    placed = {}
    for node in inference._lowered.model.graph.node:
        attrs = {a.name: a.i for a in node.attribute}
        placed[node.name] = attrs.get("__ipu_number")
    assert placed["a/Gemm"] == 0 and placed["b/Gemm"] == 1 and placed["c/Gemm"] == 2
    assert placed["Relu_1"] == 1  # after b's block began, before the next
    assert inference._lowered.num_ipus == 3
    assert all("__poptorch_block" not in n for n in placed)


def test_set_available_memory_and_options_proportion():
    class Model(nn.Module):

        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(8, 8)
            self.fc2 = nn.Linear(8, 8)

        def forward(self, x):
            return self.fc2(poptorch.set_available_memory(self.fc1(x), 0.2))

    model = Model().eval()
    opts = poptorch.Options().setAvailableMemoryProportion({"IPU0": 0.7})
    inference = poptorch.inferenceModel(model, opts)
    x = torch.randn(2, 8)
    with torch.no_grad():
        _same(inference(x), model(x))
    proportions = {n.name: [a.f for a in n.attribute if a.name == "__available_memory_proportion"]
                   for n in inference._lowered.model.graph.node}
    assert proportions["fc1/Gemm"] == [pytest.approx(0.2)]
    assert proportions["fc2/Gemm"] == [pytest.approx(0.7)]
    assert not any(n.domain == "poptorch" for n in inference._lowered.model.graph.node)


def test_set_available_memory_on_a_non_matmul_is_named():
    class Model(nn.Module):

        def forward(self, x):
            return poptorch.set_available_memory(torch.relu(x), 0.5)

    with pytest.raises(poptorch.Error, match="not of Relu"):
        poptorch.inferenceModel(Model())(torch.randn(2, 2))


def test_ipu_print_tensor_prints_each_iteration(capsys):
    class Model(nn.Module):

        def forward(self, x):
            return poptorch.ipu_print_tensor(x * 2, "doubled") + 1

    out = poptorch.inferenceModel(Model(), poptorch.Options().deviceIterations(2))(
        torch.tensor([[1.0], [2.0]]))
    _same(out, torch.tensor([[3.0], [5.0]]))
    printed = capsys.readouterr().out.splitlines()
    assert printed == ["doubled: [[2.]]", "doubled: [[4.]]"]

    class Summarised(nn.Module):

        def forward(self, x):
            return poptorch.ipu_print_tensor(x + 0.5, summarise_threshold=4, edge_items=1,
                                             separator=",", open_bracket="(", close_bracket=")")

    poptorch.inferenceModel(Summarised())(torch.arange(6.0).reshape(1, 6))
    assert capsys.readouterr().out.splitlines() == ["((0.5,...,5.5))"]


# --- errors naming what is wrong -----------------------------------------------------------------
def test_op_that_cannot_be_lowered_is_named():
    class Model(nn.Module):

        def forward(self, x):
            return torch.linalg.inv(x)

    with pytest.raises(poptorch.Error, match="'aten::linalg_inv' cannot be lowered") as e:
        poptorch.inferenceModel(Model())(torch.randn(1, 3, 3))
    assert e.value.location == "aten::linalg_inv"


def test_op_the_face_cannot_lower_names_the_module():
    class Inner(nn.Module):

        def forward(self, x):
            return torch.linalg.det(x)

    class Model(nn.Module):

        def __init__(self):
            super().__init__()
            self.inner = Inner()

        def forward(self, x):
            return self.inner(x)

    with pytest.raises(poptorch.Error, match="'Det' of 'inner/Det' cannot be lowered") as e:
        poptorch.inferenceModel(Model())(torch.randn(2, 3, 3))
    assert e.value.location == "inner/Det"


def test_training_without_a_loss_is_named():
    class Model(nn.Module):

        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)

        def forward(self, x):
            return self.fc(x)

    with pytest.raises(poptorch.Error, match="must return its loss"):
        poptorch.trainingModel(Model())(torch.randn(2, 4))


def test_wrong_arguments_are_named():
    with pytest.raises(poptorch.Error, match="torch.nn.Module"):
        poptorch.inferenceModel(lambda x: x)
    model, _ = models.make("mlp")
    with pytest.raises(poptorch.Error, match="poptorch.Options"):
        poptorch.inferenceModel(model, {"deviceIterations": 2})
    with pytest.raises(poptorch.Error, match="gradientAccumulation"):
        opts = poptorch.Options()
        opts.Training.gradientAccumulation(2)
        poptorch.inferenceModel(model, opts)
    with pytest.raises(poptorch.Error, match="argument 0"):
        poptorch.inferenceModel(model)([1.0, 2.0])


def test_blocks_train_like_torch(tmp_path, monkeypatch):
    monkeypatch.setenv("POPLAR_ENGINE_OPTIONS", json.dumps({
        "autoReport.all": "true", "autoReport.directory": str(tmp_path)}))
    torch.manual_seed(1)

    class Model(nn.Module):

        def __init__(self):
            super().__init__()
            self.a = nn.Linear(8, 16)
            self.b = poptorch.BeginBlock(nn.Linear(16, 4), ipu_id=1)
            self.loss = nn.CrossEntropyLoss()

        def forward(self, x, y):
            out = self.b(torch.relu(self.a(x)))
            return out, self.loss(out, y)

    model = Model()
    reference = copy.deepcopy(model)
    training = poptorch.trainingModel(model, poptorch.Options().deviceIterations(2),
                                      torch.optim.SGD(model.parameters(), lr=0.1))
    cpu = torch.optim.SGD(reference.parameters(), lr=0.1)
    x, y = torch.randn(8, 8), torch.randint(0, 4, (8,))
    training(x, y)
    for i in range(2):
        cpu.zero_grad()
        reference(x[4 * i:4 * i + 4], y[4 * i:4 * i + 4])[1].backward()
        cpu.step()
    for p, q in zip(model.parameters(), reference.parameters()):
        _same(p.detach(), q.detach())
    stages = {n.name: {a.name: a.i for a in n.attribute}.get("__pipeline_stage")
              for n in training._lowered.model.graph.node}
    assert stages["a/Gemm"] == 0 and stages["b/Gemm"] == 1
    # The device has two IPUs and both hold the model's work.
    import pva
    report = pva.openReport(str(tmp_path / "profile.pop"))
    tiles = report.compilation.target.numTiles // 2
    assert report.compilation.target.numIPUs == 2
    memory = report.compilation.memoryByTile()
    assert memory[:tiles].sum() > 0 and memory[tiles:].sum() > 0


def test_forward_returning_only_the_loss_and_random_seed():
    torch.manual_seed(5)
    model = nn.Sequential(nn.Linear(4, 1))

    class OnlyLoss(nn.Module):

        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, x, t):
            return nn.functional.mse_loss(self.model(x), t)

    wrapped = OnlyLoss()
    reference = copy.deepcopy(wrapped)
    opts = poptorch.Options().randomSeed(11)
    assert torch.initial_seed() == 11
    training = poptorch.trainingModel(wrapped, opts, torch.optim.SGD(wrapped.parameters(), lr=0.1))
    x, t = torch.randn(4, 4), torch.randn(4, 1)
    loss = training(x, t)
    assert loss.dim() == 0
    expected = reference(x, t)
    expected.backward()
    torch.optim.SGD(reference.parameters(), lr=0.1).step()
    _same(loss, expected.detach())
    _same(model[0].weight.detach(), reference.model[0].weight.detach())
    training.compile(x, t)  # already compiled: ignored


class _NormCnn(nn.Module):

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.norm = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4 * 6 * 6, 3)
        self.loss = nn.CrossEntropyLoss()

    def forward(self, x, y=None):
        out = self.fc(torch.relu(self.norm(self.conv(x))).flatten(1))
        return out if y is None else (out, self.loss(out, y))


def test_batch_norm_trains_and_keeps_running_statistics_like_torch():
    torch.manual_seed(2)
    model = _NormCnn()
    reference = copy.deepcopy(model)
    training = poptorch.trainingModel(model, poptorch.Options().deviceIterations(3),
                                      torch.optim.SGD(model.parameters(), lr=0.05))
    cpu = torch.optim.SGD(reference.parameters(), lr=0.05)
    for _ in range(2):
        x, y = torch.randn(6, 3, 8, 8) * 2 + 1, torch.randint(0, 3, (6,))
        training(x, y)
        for i in range(3):
            cpu.zero_grad()
            reference(x[2 * i:2 * i + 2], y[2 * i:2 * i + 2])[1].backward()
            cpu.step()
    for name, value in reference.state_dict().items():
        torch.testing.assert_close(model.state_dict()[name], value, rtol=RTOL, atol=ATOL,
                                   msg=name)
    model.eval()
    reference.eval()
    x = torch.randn(4, 3, 8, 8)
    with torch.no_grad():
        _same(poptorch.inferenceModel(model)(x), reference(x))


def test_smooth_l1_loss():
    torch.manual_seed(4)
    model = nn.Linear(6, 2)

    class WithLoss(nn.Module):

        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, x, t):
            out = self.model(x)
            return out, nn.functional.smooth_l1_loss(out, t, beta=0.5)

    wrapped = WithLoss()
    reference = copy.deepcopy(wrapped)
    x, t = torch.randn(8, 6), torch.randn(8, 2) * 2
    _, loss = poptorch.trainingModel(wrapped, optimizer=torch.optim.SGD(wrapped.parameters(),
                                                                        lr=0.1))(x, t)
    _, expected = reference(x, t)
    expected.backward()
    torch.optim.SGD(reference.parameters(), lr=0.1).step()
    _same(loss, expected.detach())
    _same(model.weight.detach(), reference.model.weight.detach())


def test_a_trained_module_pickles_as_its_own_class():
    import io
    model, data = models.make("mlp")
    training = poptorch.trainingModel(model, optimizer=torch.optim.SGD(model.parameters(), lr=0.5))
    x, y = data(4)
    training(x, y)
    buffer = io.BytesIO()
    torch.save(model, buffer)
    loaded = torch.load(io.BytesIO(buffer.getvalue()))
    copied = copy.deepcopy(model)
    for other in (loaded, copied):
        assert type(other) is models.Mlp
        assert all(type(p) is nn.Parameter for p in other.parameters())
        with torch.no_grad():
            _same(other(x), model(x))
    training(x, y)  # the original keeps training on the device
    with torch.no_grad():
        assert not torch.allclose(copied(x), model(x))


def test_cycle_count():
    model, data = models.make("mlp")
    model.eval()
    x, _ = data(4)
    plain = poptorch.inferenceModel(model)
    plain(x)
    with pytest.raises(poptorch.Error, match="logCycleCount"):
        plain.cycleCount()
    counted = poptorch.inferenceModel(model, poptorch.Options().logCycleCount(True))
    with pytest.raises(poptorch.Error, match="at least once"):
        counted.cycleCount()
    counted(x)
    assert counted.cycleCount() > 0
