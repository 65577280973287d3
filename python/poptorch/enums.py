"""PopTorch's enumerations, with PopTorch's names and members."""
import enum


class OutputMode(enum.IntEnum):
    """Which results of the device iterations of one call the host receives: All of them,
    the Final one, their Sum, or EveryN-th (with `output_return_period`). Default: Final when
    training, All for inference."""
    Final = 0
    EveryN = 1
    All = 2
    Sum = 3
    Default = 4


# PopTorch's older name of OutputMode (`Options.anchorMode`).
AnchorMode = OutputMode


class DataLoaderMode(enum.IntEnum):
    """How poptorch.DataLoader produces batches: in the calling process (Sync), by a worker
    process ahead of the model (Async), or Async with rebatching of the workers' batches to
    the combined batch (AsyncRebatched)."""
    Sync = 0
    Async = 1
    AsyncRebatched = 2


class ReductionType(enum.IntEnum):
    """How gradients of replicas and accumulated micro-batches (and losses) are reduced."""
    Sum = 0
    Mean = 1
    NoReduction = 2


class MeanReductionStrategy(enum.IntEnum):
    Running = 0
    Post = 1
    Auto = 2


class ConnectionType(enum.IntEnum):
    Always = 0
    OnDemand = 1
    Never = 2


class SyncPattern(enum.IntEnum):
    Full = 0
    SinglePipeline = 1
    ReplicaAndLadder = 2


class HalfFloatCastingBehavior(enum.IntEnum):
    FloatDowncastToHalf = 0
    HalfUpcastToFloat = 1


class MatMulSerializationMode(enum.Enum):
    InputChannels = "input_channels"
    ReducingDim = "reducing_dim"
    OutputChannels = "output_channels"
    Disabled = "none"


class OverlapMode(enum.Enum):
    NoOverlap = "no_overlap"
    OverlapAccumulationLoop = "overlap_accumulation_loop"
    OverlapDeviceIterationLoop = "overlap_device_iteration_loop"
