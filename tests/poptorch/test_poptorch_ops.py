"""PopTorch's own ops and modules: blocks placing and pipelining work over IPUs,
set_available_memory and Options' proportion on the matmuls, ipu_print_tensor, and batch norm's
training and running statistics and layer norm against torch on the CPU."""
import copy
import json

import pytest
import torch
from torch import nn

import poptorch
from side_by_side import train_side_by_side
from tolerance import RTOL, ATOL, assert_same


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
    assert_same(inference(x), expected)
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
        assert_same(inference(x), model(x))
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
    assert_same(out, torch.tensor([[3.0], [5.0]]))
    printed = capsys.readouterr().out.splitlines()
    assert printed == ["doubled: [[2.]]", "doubled: [[4.]]"]

    class Summarised(nn.Module):

        def forward(self, x):
            return poptorch.ipu_print_tensor(x + 0.5, summarise_threshold=4, edge_items=1,
                                             separator=",", open_bracket="(", close_bracket=")")

    poptorch.inferenceModel(Summarised())(torch.arange(6.0).reshape(1, 6))
    assert capsys.readouterr().out.splitlines() == ["((0.5,...,5.5))"]


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
    training = train_side_by_side(
        model, reference, torch.optim.SGD(model.parameters(), lr=0.1),
        torch.optim.SGD(reference.parameters(), lr=0.1),
        lambda n: (torch.randn(n, 8), torch.randint(0, 4, (n,))), iterations=2, per_iteration=4,
        steps=1)
    for p, q in zip(model.parameters(), reference.parameters()):
        assert_same(p.detach(), q.detach())
    stages = {n.name: {a.name: a.i for a in n.attribute}.get("__pipeline_stage")
              for n in training._lowered.model.graph.node}
    assert stages["a/Gemm"] == 0 and stages["b/Gemm"] == 1
    # The device has two IPUs and both hold the model's work.
    import pva
    report = pva.openReport(str(tmp_path / "training" / "profile.pop"))
    tiles = report.compilation.target.numTiles // 2
    assert report.compilation.target.numIPUs == 2
    memory = report.compilation.memoryByTile()
    assert memory[:tiles].sum() > 0 and memory[tiles:].sum() > 0


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


def _train_against_torch(model, reference, iterations, lr, make_batch):
    """Trains `model` on the device (`iterations` device iterations of 2 samples per step) and
    `reference` on the CPU on the same batches, twice; their states must then agree."""
    train_side_by_side(model, reference, torch.optim.SGD(model.parameters(), lr=lr),
                       torch.optim.SGD(reference.parameters(), lr=lr), make_batch, iterations,
                       per_iteration=2, steps=2)
    for name, value in reference.state_dict().items():
        torch.testing.assert_close(model.state_dict()[name], value, rtol=RTOL, atol=ATOL,
                                   msg=name)
    model.eval()
    reference.eval()


def test_batch_norm_trains_and_keeps_running_statistics_like_torch():
    torch.manual_seed(2)
    model = _NormCnn()
    reference = copy.deepcopy(model)
    _train_against_torch(model, reference, 3, 0.05,
                         lambda n: (torch.randn(n, 3, 8, 8) * 2 + 1, torch.randint(0, 3, (n,))))
    x = torch.randn(4, 3, 8, 8)
    with torch.no_grad():
        assert_same(poptorch.inferenceModel(model)(x), reference(x))


class _LayerNorms(nn.Module):

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 6)
        self.affine = nn.LayerNorm(6)
        self.plain = nn.LayerNorm((4, 6), elementwise_affine=False, eps=1e-3)
        self.loss = nn.MSELoss()

    def forward(self, x, y=None):
        out = self.plain(self.affine(self.fc(x)) * 2 + 1)
        return out if y is None else (out, self.loss(out, y))


def test_layer_norm_is_one_group_normalization_and_trains_like_torch():
    torch.manual_seed(3)
    model = _LayerNorms()
    reference = copy.deepcopy(model)
    _train_against_torch(model, reference, 2, 0.1,
                         lambda n: (torch.randn(n, 4, 6) * 3, torch.randn(n, 4, 6)))
    x = torch.randn(3, 4, 6)
    inference = poptorch.inferenceModel(model)
    with torch.no_grad():
        assert_same(inference(x), reference(x))
    # As PopTorch lowers it: no ONNX Pow, one GroupNormalization per LayerNorm.
    nodes = inference._lowered.model.graph.node
    assert not [n for n in nodes if n.op_type == "Pow"]
    norms = [n for n in nodes if n.op_type == "GroupNormalization"]
    assert len(norms) == 2 and all(n.domain == "ai.graphcore" for n in norms)
