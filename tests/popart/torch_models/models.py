"""Four small torch models, exported to ONNX at test time and run through `popart`: an MLP, a
transformer encoder layer, a GPT-style block with an embedding, a small CNN. Each comes with its
loss (the training graph PopART needs has the loss in the model) and deterministic inputs.

Shared by test_torch_models.py (results against torch) and bench_torch_models.py (times against
torch running natively).
"""
import math
import os

import numpy as np
import torch
from torch import nn

OPSET = 13  # torch 1.13 exports it by default; the ops of these models are all in scope


class Mlp(nn.Module):

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 8)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


class EncoderLayer(nn.Module):
    """torch's own TransformerEncoderLayer (dropout off, so results are deterministic)."""

    def __init__(self):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, dropout=0.0,
                                                batch_first=True)

    def forward(self, x):
        return self.layer(x)


class GptBlock(nn.Module):
    """Token and position embeddings, one pre-norm block of causal self-attention and a GELU
    MLP, and the output projection to the vocabulary."""

    def __init__(self, vocab=32, context=8, width=16, heads=2):
        super().__init__()
        self.heads = heads
        self.tokens = nn.Embedding(vocab, width)
        self.positions = nn.Parameter(torch.randn(context, width) * 0.1)
        self.norm1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.norm2 = nn.LayerNorm(width)
        self.up = nn.Linear(width, 4 * width)
        self.down = nn.Linear(4 * width, width)
        self.head = nn.Linear(width, vocab)
        self.register_buffer("mask", torch.triu(torch.full((context, context), -1e4), diagonal=1))

    def forward(self, ids):
        batch, context = ids.shape
        x = self.tokens(ids) + self.positions
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        split = lambda t: t.reshape(batch, context, self.heads, -1).transpose(1, 2)
        q, k, v = split(q), split(k), split(v)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]) + self.mask
        attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(batch, context, -1)
        x = x + self.proj(attended)
        x = x + self.down(nn.functional.gelu(self.up(self.norm2(x))))
        return self.head(x)


class SmallCnn(nn.Module):

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1)
        self.fc = nn.Linear(8 * 4 * 4, 10)

    def forward(self, x):
        x = nn.functional.max_pool2d(torch.relu(self.conv1(x)), 2)
        x = nn.functional.avg_pool2d(torch.relu(self.conv2(x)), 2)
        return self.fc(x.flatten(1))


class WithLoss(nn.Module):
    """The model and its loss in one graph, as a PopART TrainingSession trains it; returns the
    loss (output 0) and the model's output (output 1)."""

    def __init__(self, model, loss):
        super().__init__()
        self.model = model
        self.loss = loss

    def forward(self, x, target):
        out = self.model(x)
        return self.loss(out, target), out


def _mse(out, target):
    # Written out: torch 1.13 does not export aten::mse_loss.
    diff = out - target
    return (diff * diff).mean()


def _cross_entropy(out, target):
    return nn.functional.cross_entropy(out.reshape(-1, out.shape[-1]), target.reshape(-1))


def _distinct(model):
    """The model with a little noise on every parameter: torch.onnx.export shares parameters of
    equal values (the zero biases, the unit LayerNorm scales) through Identity nodes, which would
    train them as one tensor."""
    with torch.no_grad():
        for p in model.parameters():
            p.add_(torch.randn_like(p) * 0.02)
    return model


def cases():
    """name -> (model, input, target, loss): deterministic for a given process."""
    torch.manual_seed(0)
    gen = np.random.default_rng(0)
    cases = {
        "mlp": (Mlp(), gen.normal(size=(4, 16)).astype(np.float32),
                gen.normal(size=(4, 8)).astype(np.float32), _mse),
        "encoder": (EncoderLayer(), gen.normal(size=(2, 8, 16)).astype(np.float32),
                    gen.normal(size=(2, 8, 16)).astype(np.float32), _mse),
        "gpt": (GptBlock(), gen.integers(0, 32, size=(2, 8)).astype(np.int64),
                gen.integers(0, 32, size=(2, 8)).astype(np.int64), _cross_entropy),
        "cnn": (SmallCnn(), gen.normal(size=(2, 3, 16, 16)).astype(np.float32),
                gen.integers(0, 10, size=(2,)).astype(np.int64), _cross_entropy),
    }
    for model, _, _, _ in cases.values():
        _distinct(model)
    return cases


def export(model, example, directory, name):
    """The model exported to ONNX in `directory`; returns the file's path."""
    path = os.path.join(directory, name + ".onnx")
    model.eval()
    torch.onnx.export(model, tuple(torch.from_numpy(e) for e in example), path,
                      opset_version=OPSET, do_constant_folding=False,
                      input_names=[f"input{i}" for i in range(len(example))],
                      training=torch.onnx.TrainingMode.PRESERVE)
    return path


def torch_forward(model, x):
    model.eval()
    with torch.no_grad():
        return model(torch.from_numpy(x)).numpy()


def torch_sgd_step(model, x, target, loss, lr):
    """The parameters after one plain SGD step of `loss` (name -> numpy array), and the loss."""
    wrapped = WithLoss(model, loss)
    optimiser = torch.optim.SGD(wrapped.parameters(), lr=lr)
    optimiser.zero_grad()
    value, _ = wrapped(torch.from_numpy(x), torch.from_numpy(target))
    value.backward()
    optimiser.step()
    return {n: p.detach().numpy().copy() for n, p in wrapped.named_parameters()}, float(value)
