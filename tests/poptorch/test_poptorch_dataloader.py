"""poptorch.DataLoader: the combined batch (device iterations, replicas, gradient accumulation),
the asynchronous modes giving the same batches, AsynchronousDataAccessor stopping early and
re-raising its workers' errors, and a dataset too small for one combined batch named."""
import pytest
import torch

import poptorch


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
