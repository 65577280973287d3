"""poptorch.optim's optimizers and torch's own against torch on the CPU: weights after several
steps, parameter groups and a learning rate changed between steps, and an optimizer that is not
supported named."""
import copy

import pytest
import torch

import poptorch
import models
from side_by_side import train_side_by_side
from tolerance import assert_same


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
    train_side_by_side(model, reference, make_ipu(model.parameters()),
                       make_cpu(reference.parameters()), data, iterations=3, per_iteration=4,
                       steps=2)
    for p, q in zip(model.parameters(), reference.parameters()):
        assert_same(p.detach(), q.detach())


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
        assert_same(p.detach(), q.detach())


def test_unsupported_optimizer_is_named():
    model, data = models.make("mlp")
    with pytest.raises(poptorch.Error, match="Adagrad"):
        poptorch.trainingModel(model, optimizer=torch.optim.Adagrad(model.parameters()))(*data(1))
