"""PopTorch's Python API over TileScope's PopART face: a torch model is traced to ONNX and runs
on a simulated IPU, as Graphcore's PopTorch runs it on an IPU. Port a training script by
wrapping its DataLoader (`poptorch.DataLoader(opts, ...)`) and its model
(`poptorch.trainingModel(model, opts, optimizer)`, `poptorch.inferenceModel(model, opts)`);
`POPLAR_ENGINE_OPTIONS='{"autoReport.all":"true"}'` writes the report TileScope opens."""
import torch

from . import enums, optim  # noqa: F401
from ._dataloader import AsynchronousDataAccessor, DataLoader  # noqa: F401
from ._executor import PoplarExecutor
from ._logging import logger, setLogLevel  # noqa: F401
from .enums import (AnchorMode, ConnectionType, DataLoaderMode,  # noqa: F401
                    HalfFloatCastingBehavior, MatMulSerializationMode, MeanReductionStrategy,
                    OutputMode, ReductionType, SyncPattern)
from .errors import Error, RecoverableError, UnrecoverableError  # noqa: F401
from .ops import (BeginBlock, Block, identity_loss, ipu_print_tensor,  # noqa: F401
                  set_available_memory)
from .options import Options  # noqa: F401

__version__ = "3.3.0+tilescope"


def trainingModel(model, options=None, optimizer=None):
    """`model` (its forward returns the loss, or (output, loss)) trained on a simulated IPU by
    calling the returned PoplarExecutor with a combined batch; `optimizer` defaults to SGD with
    learning rate 0.01. The module's parameters are updated in place."""
    return PoplarExecutor(model, options, training=True, optimizer=optimizer)


def inferenceModel(model, options=None):
    """`model` run forward on a simulated IPU by calling the returned PoplarExecutor."""
    return PoplarExecutor(model, options, training=False)


def ipuHardwareIsAvailable(num_ipus=1):
    """Whether IPU hardware is present: never here, every device is simulated."""
    return False


def ipuHardwareVersion():
    return "ipu2"


def isRunningOnIpu():
    """True inside an export for the IPU (the model is being traced), as in PopTorch."""
    return torch.onnx.is_in_onnx_export()
