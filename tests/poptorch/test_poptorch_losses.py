"""Losses trained against torch on the CPU: identity_loss's reductions and torch's losses
(mse, l1, binary cross entropy, smooth l1), identity_loss on the CPU, and a forward that returns
only its loss (with Options' random seed)."""
import copy

import pytest
import torch
from torch import nn

import poptorch
from tolerance import assert_same


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
    assert_same(loss, expected.detach())
    for p, q in zip(model.parameters(), reference.parameters()):
        assert_same(p.detach(), q.detach())


def test_identity_loss_on_the_cpu_and_bad_reduction():
    x = torch.arange(4.0)
    assert poptorch.identity_loss(x, "sum").item() == 6.0
    assert poptorch.identity_loss(x, "mean").item() == 1.5
    with pytest.raises(poptorch.Error, match="'max'"):
        poptorch.identity_loss(x, "max")


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
    assert_same(loss, expected.detach())
    assert_same(model[0].weight.detach(), reference.model[0].weight.detach())
    training.compile(x, t)  # already compiled: ignored


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
    assert_same(loss, expected.detach())
    assert_same(model.weight.detach(), reference.model.weight.detach())
