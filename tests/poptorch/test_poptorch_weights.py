"""Weights between the host and the device: copied back when the host reads them, followed by
the inference model, copied to the device and loaded from a state dict; attach, detach and
compile; outputs that refuse backward; a trained module that pickles as its own class."""
import copy

import pytest
import torch
from torch import nn

import poptorch
import models
from tolerance import assert_same


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
    assert_same(inference(x), expected)
    training(x, y)  # trained again on the device: the inference model must see it
    with torch.no_grad():
        expected = model(x)
    assert_same(inference(x), expected)
    with torch.no_grad():
        model.fc2.bias.add_(1.0)  # changed on the host
    assert_same(inference(x), expected + 1.0)


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
        assert_same(inference(x), model(x))


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
        assert_same(p.detach(), q.detach())


def test_outputs_refuse_backward_and_bad_batches_are_named():
    model, data = models.make("mlp")
    training = poptorch.trainingModel(model, poptorch.Options().deviceIterations(2))
    _, loss = training(*data(4))
    with pytest.raises(poptorch.Error, match="backward"):
        loss.backward()
    with pytest.raises(poptorch.Error, match="multiple of device iterations"):
        training(*data(3))


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
            assert_same(other(x), model(x))
    training(x, y)  # the original keeps training on the device
    with torch.no_grad():
        assert not torch.allclose(copied(x), model(x))
