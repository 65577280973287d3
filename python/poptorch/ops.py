"""PopTorch's ops a model calls in its forward: identity_loss, BeginBlock, Block,
set_available_memory, ipu_print_tensor. On the CPU they compute what torch would (a loss's
reduction, the tensor itself); while poptorch exports the model to ONNX they become the ops and
annotations the PopART face reads (IdentityLoss, "__ipu_number"/"__pipeline_stage",
"__available_memory_proportion", a printed anchor), applied by poptorch._lowering."""
import torch

from . import _trace_state
from .errors import Error

_REDUCTIONS = {"sum": "Sum", "mean": "Mean", "none": "NoReduction"}


class _IdentityLoss(torch.autograd.Function):

    @staticmethod
    def forward(ctx, x, reduction):
        return _reduce(x, reduction)

    @staticmethod
    def symbolic(g, x, reduction):
        return g.op("ai.graphcore::IdentityLoss", x, reduction_s=_REDUCTIONS[reduction])


def _reduce(x, reduction):
    if reduction == "sum":
        return torch.sum(x)
    if reduction == "mean":
        return torch.mean(x)
    return x


def identity_loss(x, reduction):
    """Marks `x` as the loss the model is trained on, reduced by `reduction` ("sum", "mean" or
    "none"); returns the reduced value."""
    if reduction not in _REDUCTIONS:
        raise Error(f"identity_loss: reduction '{reduction}' is not 'sum', 'mean' or 'none'")
    if torch.onnx.is_in_onnx_export():
        return _IdentityLoss.apply(x, reduction)
    return _reduce(x, reduction)


class _Marker(torch.autograd.Function):
    """The tensor itself, exported as a poptorch-domain node that _lowering removes after
    applying what it marks."""

    @staticmethod
    def forward(ctx, x, kind, value):
        return x.clone()

    @staticmethod
    def symbolic(g, x, kind, value):
        if kind == "AvailableMemory":
            return g.op("poptorch::SetAvailableMemory", x, proportion_f=value)
        return g.op("poptorch::PrintTensor", x, title_s=value)


def set_available_memory(tensor, available_memory_proportion):
    """Sets the available memory proportion of the matmul or convolution that produced `tensor`
    (PopLibs' "availableMemoryProportion" of that op); returns `tensor`."""
    if not 0.0 < float(available_memory_proportion) <= 1.0:
        raise Error(f"set_available_memory: {available_memory_proportion} is not in (0, 1]")
    if torch.onnx.is_in_onnx_export():
        return _Marker.apply(tensor, "AvailableMemory", float(available_memory_proportion))
    return tensor


def ipu_print_tensor(tensor, title="", print_gradient=True, summarise_threshold=1000,
                     edge_items=3, max_line_width=75, digits=8, float_format="auto",
                     separator=" ", open_bracket="[", close_bracket="]"):
    """Prints `tensor` each time the model runs on the device ("title: values" on stdout, per
    device iteration, formatted by the arguments as numpy formats arrays); returns `tensor`. On
    the CPU it returns `tensor` unprinted, as PopTorch. The gradient is not printed (a training
    model warns once that print_gradient does not apply)."""
    if torch.onnx.is_in_onnx_export():
        index = _trace_state.add_print(
            dict(title=str(title), print_gradient=bool(print_gradient),
                 threshold=int(summarise_threshold), edgeitems=int(edge_items),
                 max_line_width=int(max_line_width), precision=int(digits),
                 float_format=float_format, separator=str(separator),
                 brackets=(str(open_bracket), str(close_bracket))))
        return _Marker.apply(tensor, "PrintTensor", str(index))
    return tensor


class Block:
    """`with poptorch.Block(user_id, ipu_id):` puts the ops called inside, and those after it
    until the next block, on IPU `ipu_id` (a pipeline stage of its own)."""

    def __init__(self, user_id=None, ipu_id=None):
        self.user_id = user_id
        self.ipu_id = ipu_id
        self._scope = None

    def __enter__(self):
        self._scope = _trace_state.push_block(self.user_id, self.ipu_id)
        return self

    def __exit__(self, *exc):
        if self._scope is not None:
            _trace_state.pop_block()
            self._scope = None
        return False


class _BlockHooks:
    """The forward hooks BeginBlock registers: the module's call runs inside its Block."""

    def __init__(self, user_id, ipu_id):
        self.block = Block(user_id, ipu_id)

    def before(self, module, inputs):
        self.block.__enter__()

    def after(self, module, inputs, output):
        self.block.__exit__(None, None, None)


def BeginBlock(layer_to_call, user_id=None, ipu_id=None):
    """Starts a block at `layer_to_call` (a torch.nn.Module): it and everything after it, until
    the next block, run on IPU `ipu_id`. Returns the module."""
    if not isinstance(layer_to_call, torch.nn.Module):
        raise Error("BeginBlock: the layer must be a torch.nn.Module, not "
                    f"{type(layer_to_call).__name__}")
    if ipu_id is not None and (not isinstance(ipu_id, int) or ipu_id < 0):
        raise Error(f"BeginBlock: ipu_id {ipu_id!r} is not a non-negative integer")
    for handle in getattr(layer_to_call, "_poptorch_block_handles", ()):
        handle.remove()
    hooks = _BlockHooks(user_id, ipu_id)
    layer_to_call._poptorch_block_handles = (layer_to_call.register_forward_pre_hook(hooks.before),
                                             layer_to_call.register_forward_hook(hooks.after))
    return layer_to_call
