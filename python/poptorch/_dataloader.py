"""poptorch.DataLoader and poptorch.AsynchronousDataAccessor.

A PopTorch model consumes, per call, the batches of all its device iterations, replicas and
accumulated micro-batches at once, so poptorch's DataLoader is torch's with the combined batch
size `batch_size x deviceIterations x replicationFactor x gradientAccumulation`. The Async modes
load the next combined batches on a worker thread while the model runs (the simulated device
releases the GIL while it works)."""
import queue
import threading

import torch

from . import enums
from .errors import Error
from .options import Options


def _combined_factor(options):
    return (options.device_iterations * options.replication_factor *
            options.Training.gradient_accumulation)


class DataLoader(torch.utils.data.DataLoader):
    """torch's DataLoader over `dataset` with the combined batch of `options` (see the module's
    comment). `mode` Async/AsyncRebatched wraps the loader in an AsynchronousDataAccessor when
    iterated; `num_workers`, `shuffle`, `drop_last` and the other keyword arguments are torch's.
    """

    def __init__(self, options, dataset, batch_size=1, shuffle=False, num_workers=0,
                 drop_last=True, persistent_workers=None, auto_distributed_partitioning=True,
                 mode=enums.DataLoaderMode.Sync, async_options=None, rebatched_worker_size=None,
                 **kwargs):
        if options is None:
            options = Options()
        if not isinstance(options, Options):
            raise Error("poptorch.DataLoader: the first argument must be poptorch.Options, "
                        f"not {type(options).__name__}")
        if not isinstance(mode, enums.DataLoaderMode):
            raise Error("poptorch.DataLoader: mode must be a poptorch.DataLoaderMode")
        if batch_size is None or not isinstance(batch_size, int) or batch_size < 1:
            raise Error("poptorch.DataLoader: batch_size must be an integer of at least 1")
        self._options = options
        self._mode = mode
        self._async_options = dict(async_options or {})
        self._micro_batch_size = batch_size
        combined = batch_size * _combined_factor(options)
        if persistent_workers is None:
            persistent_workers = num_workers > 0
        super().__init__(dataset, batch_size=combined, shuffle=shuffle, num_workers=num_workers,
                         drop_last=drop_last, persistent_workers=persistent_workers, **kwargs)
        if len(self) == 0:
            raise Error(f"poptorch.DataLoader: the dataset's {len(dataset)} samples make no "
                        f"combined batch of {combined} (batch_size {batch_size} x device "
                        f"iterations {options.device_iterations} x replicas "
                        f"{options.replication_factor} x gradient accumulation "
                        f"{options.Training.gradient_accumulation}); lower one of them or set "
                        "drop_last=False")

    @property
    def combinedBatchSize(self):
        return self.batch_size

    @property
    def options(self):
        return self._options

    def __iter__(self):
        if self._mode == enums.DataLoaderMode.Sync:
            return super().__iter__()
        return iter(AsynchronousDataAccessor(_PlainIterable(self), **self._async_options))

    def terminate(self):
        """PopTorch stops an Async loader's workers with this; the thread ends with its iterator."""


class _PlainIterable:
    """The DataLoader iterated synchronously (the accessor's source)."""

    def __init__(self, loader):
        self._loader = loader

    def __iter__(self):
        return torch.utils.data.DataLoader.__iter__(self._loader)

    def __len__(self):
        return len(self._loader)


_END = object()


class AsynchronousDataAccessor:
    """Loads batches of `dataset` (a DataLoader or any iterable of batches) on a worker thread,
    up to `buffer_size` ahead of the consumer; iterating gives the same batches in order. A
    loader's exception is raised in the consumer."""

    def __init__(self, dataset, buffer_size=3, miss_sleep_time_in_ms=0.1, load_indefinitely=False,
                 early_preload=False, sharing_strategy=None, rebatched_size=None):
        if not isinstance(buffer_size, int) or buffer_size < 1:
            raise Error("AsynchronousDataAccessor: buffer_size must be an integer of at least 1")
        self._dataset = dataset
        self._buffer_size = buffer_size
        self._load_indefinitely = load_indefinitely

    def __len__(self):
        return len(self._dataset)

    def __iter__(self):
        batches = queue.Queue(maxsize=self._buffer_size)
        stop = threading.Event()

        def put(item):
            # False once the consumer has stopped (it may never take the item).
            while not stop.is_set():
                try:
                    batches.put(item, timeout=0.1)
                    return True
                except queue.Full:
                    continue
            return False

        def load():
            try:
                while True:
                    for batch in self._dataset:
                        if not put(batch):
                            return
                    if not self._load_indefinitely:
                        break
                put(_END)
            except BaseException as e:  # handed to the consumer, raised there
                put(e)

        worker = threading.Thread(target=load, name="poptorch-data", daemon=True)
        worker.start()
        try:
            while True:
                item = batches.get()
                if item is _END:
                    return
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            stop.set()
            worker.join()

    def terminate(self):
        pass
