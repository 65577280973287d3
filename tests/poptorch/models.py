"""Small torch models of the poptorch tests and benchmark, each returning (output, loss) when
given labels, as PopTorch's tutorials write models: an MLP, a CNN on 3x16x16 images, and a small
transformer classifier (an embedding, torch's TransformerEncoderLayer, a mean-pooled head)."""
import torch
from torch import nn


class Mlp(nn.Module):

    def __init__(self, features=16, hidden=32, classes=4):
        super().__init__()
        self.fc1 = nn.Linear(features, hidden)
        self.fc2 = nn.Linear(hidden, classes)
        self.loss = nn.CrossEntropyLoss()

    def forward(self, x, labels=None):
        out = self.fc2(torch.relu(self.fc1(x)))
        if labels is None:
            return out
        return out, self.loss(out, labels)


class Cnn(nn.Module):

    def __init__(self, classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1)
        self.fc = nn.Linear(8 * 4 * 4, classes)
        self.loss = nn.CrossEntropyLoss()

    def forward(self, x, labels=None):
        x = nn.functional.max_pool2d(torch.relu(self.conv1(x)), 2)
        x = nn.functional.avg_pool2d(torch.relu(self.conv2(x)), 2)
        out = self.fc(x.flatten(1))
        if labels is None:
            return out
        return out, self.loss(out, labels)


class Transformer(nn.Module):

    def __init__(self, vocab=32, width=16, classes=4):
        super().__init__()
        self.embedding = nn.Embedding(vocab, width)
        self.encoder = nn.TransformerEncoderLayer(d_model=width, nhead=2, dim_feedforward=32,
                                                  dropout=0.0, batch_first=True)
        self.head = nn.Linear(width, classes)
        self.loss = nn.CrossEntropyLoss()

    def forward(self, ids, labels=None):
        out = self.head(self.encoder(self.embedding(ids)).mean(dim=1))
        if labels is None:
            return out
        return out, self.loss(out, labels)


def make(name, seed=0):
    """A model and a function giving `n` samples of its inputs and labels."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed + 1)
    if name == "mlp":
        return Mlp(), lambda n: (torch.randn(n, 16, generator=gen),
                                 torch.randint(0, 4, (n,), generator=gen))
    if name == "cnn":
        return Cnn(), lambda n: (torch.randn(n, 3, 16, 16, generator=gen),
                                 torch.randint(0, 10, (n,), generator=gen))
    if name == "transformer":
        model = Transformer()
        # torch's encoder layer takes a fused path in inference that the trace never sees.
        return model, lambda n: (torch.randint(0, 32, (n, 8), generator=gen),
                                 torch.randint(0, 4, (n,), generator=gen))
    raise ValueError(name)


NAMES = ("mlp", "cnn", "transformer")
