"""The errors naming what is wrong: an op that cannot be lowered (with its module), training
without a loss, and wrong arguments to inferenceModel."""
import pytest
import torch
from torch import nn

import poptorch
import models


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
