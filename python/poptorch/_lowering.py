"""A torch model to the ONNX model the PopART face compiles.

torch.onnx.export traces the model (opset 13, no constant folding, the module's own training
mode). torch names each node after the modules it was called from ("/encoder/fc1/Gemm"), so the
PopART face, which takes an operation's debug name from its node's name, reports operations
under the model's module paths: the names lose only their leading "/". Then poptorch's markers
are applied and removed (blocks, set_available_memory, ipu_print_tensor: see ops.py), the
options' available memory proportions are written onto matmuls and convolutions, buffers and
frozen parameters become constants when training, and the loss is found among the outputs.
A model with float16 parameters, buffers or inputs is exported in float32 and typed FLOAT16
afterwards (poptorch._half).
"""
import contextlib
import io
import re
import warnings

import onnx
import torch
from onnx import helper, numpy_helper

from . import _half, _trace_state
from .enums import HalfFloatCastingBehavior
from .errors import Error

OPSET = 13
_LOSS_OPS = {"IdentityLoss", "SoftmaxCrossEntropyLoss", "NegativeLogLikelihoodLoss", "Nll", "L1"}
_MEMORY_OPS = {"MatMul", "Gemm", "Conv"}
_REDUCTION_NAMES = {0: "NoReduction", 1: "Mean", 2: "Sum"}


def _register_symbolics():
    """torch 1.13 exports no ONNX for mse_loss, l1_loss and smooth_l1_loss, which PopTorch
    supports: they become their element-wise terms reduced by an IdentityLoss, so the output is
    recognised as a loss. layer_norm becomes PopART's GroupNormalization, as in PopTorch."""
    from torch.onnx import symbolic_helper

    def make(square):

        @symbolic_helper.parse_args("v", "v", "i")
        def symbolic(g, x, target, reduction):
            diff = g.op("Sub", x, target)
            value = g.op("Mul", diff, diff) if square else g.op("Abs", diff)
            return g.op("ai.graphcore::IdentityLoss", value,
                        reduction_s=_REDUCTION_NAMES[reduction])

        return symbolic

    @symbolic_helper.parse_args("v", "v", "i", "f")
    def smooth_l1(g, x, target, reduction, beta):
        # 0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta (torch's SmoothL1Loss).
        d = g.op("Abs", g.op("Sub", x, target))
        b = g.op("Constant", value_t=torch.tensor(beta, dtype=torch.float32))
        half = g.op("Constant", value_t=torch.tensor(0.5, dtype=torch.float32))
        if beta > 0.0:
            small = g.op("Div", g.op("Mul", half, g.op("Mul", d, d)), b)
            value = g.op("Where", g.op("Less", d, b), small, g.op("Sub", d, g.op("Mul", half, b)))
        else:
            value = d
        return g.op("ai.graphcore::IdentityLoss", value, reduction_s=_REDUCTION_NAMES[reduction])

    @symbolic_helper.parse_args("v", "is", "v", "v", "f", "b")
    def layer_norm(g, x, normalized_shape, weight, bias, eps, cudnn_enable):
        # As PopTorch canonicalises it: x flattened to {M, N} over the normalised dimensions,
        # PopART's GroupNormalization with one group (the affine parameters flattened to the N
        # "channels"), reshaped back. torch's own export spells it out in ONNX ops (ReduceMean,
        # Sub, Pow, Sqrt, Div, ...), which PopART would run as nine operations.
        n = 1
        for d in normalized_shape:
            n *= d
        if symbolic_helper._is_none(weight):
            weight = g.op("Constant", value_t=torch.ones(n))
        if symbolic_helper._is_none(bias):
            bias = g.op("Constant", value_t=torch.zeros(n))
        flat_n = g.op("Constant", value_t=torch.tensor([n], dtype=torch.int64))
        rank = symbolic_helper._get_tensor_rank(x)
        flat = g.op("Flatten", x, axis_i=rank - len(normalized_shape))
        y = g.op("ai.graphcore::GroupNormalization", flat, g.op("Reshape", weight, flat_n),
                 g.op("Reshape", bias, flat_n), num_groups_i=1, epsilon_f=eps, outputs=3)[0]
        return g.op("Reshape", y, g.op("Shape", x))

    torch.onnx.register_custom_op_symbolic("aten::mse_loss", make(True), OPSET)
    torch.onnx.register_custom_op_symbolic("aten::l1_loss", make(False), OPSET)
    torch.onnx.register_custom_op_symbolic("aten::smooth_l1_loss", smooth_l1, OPSET)
    torch.onnx.register_custom_op_symbolic("aten::layer_norm", layer_norm, OPSET)


_register_symbolics()


class Lowered:
    """The exported model and what the executor needs to run it: `model` (onnx.ModelProto),
    `inputs` (ONNX input names, in the call's argument order), `outputs` (output tensor ids,
    flattened) and `structure` (how to rebuild the forward's return value), `loss` (the output
    trained on, or None), `weights` (initializer name -> the parameter or buffer it came from,
    for the trainable ones when training), `prints` ((tensor id, format) of ipu_print_tensor),
    `num_ipus` (IPUs one replica spans)."""

    def __init__(self):
        self.model = None
        self.inputs = []
        self.outputs = []
        self.structure = None
        self.loss = None
        self.weights = {}
        self.prints = []
        self.num_ipus = 1
        self.batch_norms = []


class BatchNormStatistics:
    """A training BatchNormalization whose running statistics poptorch keeps on the host: the
    node's running mean and variance outputs (anchored per step), the module whose buffers they
    update, the buffer values compiled into the graph, ONNX's momentum, and the elements per
    channel of one micro-batch (for torch's unbiased running variance)."""

    def __init__(self, module, mean_out, var_out, momentum, per_channel):
        self.module = module
        self.mean_out = mean_out
        self.var_out = var_out
        self.compiled_mean = module.running_mean.detach().clone()
        self.compiled_var = module.running_var.detach().clone()
        self.momentum = momentum
        self.per_channel = per_channel

    def update(self, means, variances):
        """Applies the steps' outputs (arrays [steps, C]) to the module's buffers as torch's
        BatchNorm would have, step by step."""
        m = self.module
        keep = self.momentum
        with torch.no_grad():
            for mean_k, var_k in zip(means, variances):
                # The node computed keep * compiled + (1 - keep) * statistic of this step.
                batch_mean = (torch.from_numpy(mean_k) - keep * self.compiled_mean) / (1 - keep)
                batch_var = (torch.from_numpy(var_k) - keep * self.compiled_var) / (1 - keep)
                n = self.per_channel
                unbiased = batch_var * (n / (n - 1)) if n > 1 else batch_var
                m.num_batches_tracked.add_(1)
                factor = (m.momentum if m.momentum is not None else
                          1.0 / float(m.num_batches_tracked))
                m.running_mean.mul_(1 - factor).add_(batch_mean.to(m.running_mean.dtype),
                                                     alpha=factor)
                m.running_var.mul_(1 - factor).add_(unbiased.to(m.running_var.dtype),
                                                    alpha=factor)


def _flatten(value, leaves):
    """The forward's return value as a structure of leaf indices (tensors into `leaves`)."""
    if isinstance(value, torch.Tensor):
        leaves.append(value)
        return len(leaves) - 1
    if isinstance(value, (tuple, list)):
        return (type(value), [_flatten(v, leaves) for v in value])
    if isinstance(value, dict):
        return (dict, {k: _flatten(v, leaves) for k, v in value.items()})
    raise Error(f"poptorch: the model returned a {type(value).__name__}; PopTorch models return "
                "tensors, or tuples, lists or dicts of tensors")


def unflatten(structure, leaves):
    if isinstance(structure, int):
        return leaves[structure]
    kind, items = structure
    if kind is dict:
        return {k: unflatten(v, leaves) for k, v in items.items()}
    return kind(unflatten(v, leaves) for v in items)


def _unsupported(e):
    """poptorch.Error for an export failure, naming the op torch could not export."""
    text = str(e)
    match = re.search(r"operator '([^']+)'", text) or re.search(r"(aten::\w+|prim::\w+)", text)
    op = match.group(1) if match else "?"
    return Error(f"poptorch: op '{op}' cannot be lowered (torch.onnx cannot export it to ONNX "
                 f"opset {OPSET}): {text.splitlines()[0] if text else type(e).__name__}",
                 location=op)


def lower(model, args, training, options):
    """`model` called on `args` (tensors), exported and prepared as described in the module's
    comment; returns a Lowered."""
    out = Lowered()
    captured = {}

    def capture(module, inputs, result):
        captured["result"] = result

    handle = model.register_forward_hook(capture)
    norm_inputs = {}
    norm_hooks = []


    def record_norm_input(module, inputs):
        norm_inputs.setdefault(id(module), tuple(int(d) for d in inputs[0].shape))

    if training:
        for module in model.modules():
            if isinstance(module, torch.nn.modules.batchnorm._BatchNorm):
                norm_hooks.append(module.register_forward_pre_hook(record_norm_input))
    buffer = io.BytesIO()
    # Tracing runs the forward on the CPU, which updates buffers (BatchNorm's running
    # statistics): they are put back as they were afterwards.
    saved_buffers = [(b, b.detach().clone()) for b in model.buffers()]
    half = _half.uses_float16(model, args)
    dtypes = arg_dtypes = None
    _trace_state.begin_export()
    failure = None
    try:
        with warnings.catch_warnings(), contextlib.ExitStack() as stack:
            warnings.simplefilter("ignore")
            export_args = tuple(args)
            if half:
                # torch cannot run float16 matmuls on the CPU: see _half.
                export_args, dtypes, arg_dtypes = stack.enter_context(
                    _half.float_export(model, args))
            torch.onnx.export(model, export_args, buffer, opset_version=OPSET,
                              do_constant_folding=False,
                              training=torch.onnx.TrainingMode.PRESERVE,
                              input_names=[f"input{i}" for i in range(len(args))])
    except Error:
        raise
    except Exception as e:  # torch.onnx's errors have no common base class
        # Raised below, outside this block, with only the message: the export's exception and
        # its frames hold torch JIT graph objects, and keeping those alive (as a chained
        # exception a test or a notebook keeps) makes later exports fail in pybind11.
        failure = _unsupported(e)
    finally:
        handle.remove()
        for h in norm_hooks:
            h.remove()
        with torch.no_grad():
            for b, value in saved_buffers:
                b.copy_(value)
        blocks, print_formats = _trace_state.end_export()
    if failure is not None:
        raise failure
    leaves = []
    out.structure = _flatten(captured["result"], leaves)
    proto = onnx.load_from_string(buffer.getvalue())
    graph = proto.graph
    out.inputs = [i.name for i in graph.input][:len(args)]
    if half:
        downcast = (options.Precision.half_float_casting ==
                    HalfFloatCastingBehavior.FloatDowncastToHalf)
        _half.assign_types(proto, dtypes, out.inputs, arg_dtypes, downcast)

    _apply_markers(graph, out, print_formats)
    _apply_blocks(graph, blocks, out)
    _apply_memory_proportions(graph, options)
    if training:
        _keep_batch_norm_statistics(model, graph, norm_inputs, out)
    _name_weights(model, graph, training, out)
    out.outputs = [o.name for o in graph.output]
    if len(out.outputs) != len(leaves):
        raise Error(f"poptorch: the ONNX model has {len(out.outputs)} outputs for the "
                    f"{len(leaves)} tensors the model returned (an output that is an input or "
                    "a parameter unchanged is not supported)")
    if training:
        out.loss = _find_loss(graph, leaves, out.outputs)
    out.model = proto
    ensure_domains(proto)
    return out


def ensure_domains(proto):
    """An opset import (version 1) for every custom domain a node of `proto` uses."""
    imported = {o.domain for o in proto.opset_import}
    for domain in sorted({n.domain for n in proto.graph.node} - imported - {"", "ai.onnx"}):
        proto.opset_import.append(helper.make_opsetid(domain, 1))


def _consumers_rename(graph, old, new):
    for node in graph.node:
        for i, name in enumerate(node.input):
            if name == old:
                node.input[i] = new
    for output in graph.output:
        if output.name == old:
            output.name = new


def _apply_markers(graph, out, print_formats):
    producers = {o: n for n in graph.node for o in n.output}
    keep = []
    markers = []
    for node in graph.node:
        if node.domain == "poptorch":
            markers.append(node)
        else:
            keep.append(node)
    for node in markers:
        source, marked = node.input[0], node.output[0]
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        if node.op_type == "SetAvailableMemory":
            producer = producers.get(source)
            if producer is None or producer.op_type not in _MEMORY_OPS:
                kind = producer.op_type if producer is not None else "a graph input"
                raise Error("poptorch: set_available_memory applies to the output of a matmul or "
                            f"convolution, not of {kind}", location=node.name)
            _set_attribute(producer, "__available_memory_proportion", float(attrs["proportion"]))
        elif node.op_type == "PrintTensor":
            index = attrs["title"]
            index = int(index.decode() if isinstance(index, bytes) else index)
            out.prints.append((source, print_formats[index]))
        _consumers_rename(graph, marked, source)
    del graph.node[:]
    graph.node.extend(keep)


def _set_attribute(node, name, value):
    for a in list(node.attribute):
        if a.name == name:
            node.attribute.remove(a)
    node.attribute.append(helper.make_attribute(name, value))


def _apply_blocks(graph, blocks, out):
    """Each node's block is the last block marker seen in node order (ops before the first
    block are on IPU 0); marker segments are removed from the names."""
    marker = re.compile(r"^__poptorch_block(\d+)__$")
    current = None
    stages = {}
    ipus = {0}
    for node in graph.node:
        segments = node.name.split("/")
        kept = []
        for s in segments:
            m = marker.match(s)
            if m:
                current = int(m.group(1))
            else:
                kept.append(s)
        node.name = "/".join(s for s in kept if s) or node.op_type
        if not blocks:
            continue
        user_id, ipu_id = blocks[current] if current is not None else (None, 0)
        ipu = ipu_id if ipu_id is not None else 0
        key = user_id if user_id is not None else ("ipu", ipu)
        stage = stages.setdefault(key, len(stages))
        ipus.add(ipu)
        _set_attribute(node, "__ipu_number", int(ipu))
        _set_attribute(node, "__pipeline_stage", int(stage))
    out.num_ipus = max(ipus) + 1


def _apply_memory_proportions(graph, options):
    proportions = options.available_memory_proportion
    if not proportions:
        return
    for node in graph.node:
        if node.op_type not in _MEMORY_OPS:
            continue
        if any(a.name == "__available_memory_proportion" for a in node.attribute):
            continue
        ipu = next((a.i for a in node.attribute if a.name == "__ipu_number"), 0)
        if ipu in proportions:
            _set_attribute(node, "__available_memory_proportion", proportions[ipu])


def _keep_batch_norm_statistics(model, graph, norm_inputs, out):
    """A training BatchNormalization's running statistics: torch exports them as outputs 1 and 2
    (and the saved statistics as 3 and 4, unused); the PopART face computes 1 and 2 from the
    graph's copy of the buffers, so poptorch anchors them and updates the module's buffers on
    the host (BatchNormStatistics). Outputs 3 and 4 are dropped."""
    buffers = dict(model.named_buffers())
    for node in graph.node:
        if node.op_type != "BatchNormalization" or len(node.output) < 3:
            continue
        for i in range(3, len(node.output)):
            node.output[i] = ""
        name = node.input[3]
        if name not in buffers or not name.endswith("running_mean"):
            raise Error("poptorch: a training BatchNormalization whose running mean is not a "
                        "module buffer is not supported", location=node.name)
        module = model.get_submodule(name[:-len(".running_mean")]) if "." in name else model
        shape = norm_inputs.get(id(module))
        if shape is None or len(shape) < 2:
            raise Error("poptorch: the input of a BatchNorm was not seen while tracing",
                        location=node.name)
        channels = shape[1]
        per_channel = 1
        for d in shape:
            per_channel *= d
        per_channel //= channels
        momentum = next((a.f for a in node.attribute if a.name == "momentum"), 0.9)
        # The statistics have the running buffers' type (FLOAT16 in a half model).
        elem_type = next((i.data_type for i in graph.initializer if i.name == name),
                         onnx.TensorProto.FLOAT)
        for i in (1, 2):
            graph.value_info.append(helper.make_tensor_value_info(node.output[i], elem_type,
                                                                  [channels]))
        out.batch_norms.append(BatchNormStatistics(module, node.output[1], node.output[2],
                                                   momentum, per_channel))


def _name_weights(model, graph, training, out):
    """Initializers that are trainable parameters stay weights (PopART trains every initializer
    that has a gradient); when training, the others (buffers, frozen parameters) become Constant
    nodes so they stay as they are."""
    parameters = dict(model.named_parameters())
    buffers = dict(model.named_buffers())
    constants = []
    kept = []
    for init in graph.initializer:
        param = parameters.get(init.name)
        if param is not None and (param.requires_grad or not training):
            out.weights[init.name] = param
            kept.append(init)
        elif training:
            # A buffer's value as the module holds it (the export saw it after the traced
            # forward had updated it).
            value = (buffers[init.name].detach().cpu().numpy()
                     if init.name in buffers else numpy_helper.to_array(init))
            constants.append(helper.make_node("Constant", [], [init.name],
                                              name=f"{init.name}/Constant",
                                              value=numpy_helper.from_array(value, init.name)))
        else:
            if init.name in buffers:
                out.weights[init.name] = buffers[init.name]
            kept.append(init)
    if constants:
        del graph.initializer[:]
        graph.initializer.extend(kept)
        nodes = list(graph.node)
        del graph.node[:]
        graph.node.extend(constants + nodes)
        names = {c.output[0] for c in constants}
        remaining = [i for i in graph.input if i.name not in names]
        del graph.input[:]
        graph.input.extend(remaining)


def _find_loss(graph, leaves, outputs):
    """The output to train on: the one a loss op produced (a torch loss or identity_loss), else
    the model's only scalar output."""
    producers = {o: n for n in graph.node for o in n.output}
    losses = [o for o in outputs if o in producers and producers[o].op_type in _LOSS_OPS]
    if len(losses) > 1:
        raise Error(f"poptorch: the model returns {len(losses)} losses ({', '.join(losses)}); "
                    "return their sum (poptorch.identity_loss(a + b, reduction='none'))")
    if losses:
        index = outputs.index(losses[0])
    else:
        scalars = [i for i, t in enumerate(leaves) if t.dim() == 0]
        if len(scalars) != 1:
            raise Error("poptorch: a trainingModel's forward must return its loss: the result "
                        "of a torch loss function or of poptorch.identity_loss (or a single "
                        "scalar tensor)")
        index = scalars[0]
    if leaves[index].dim() != 0:
        raise Error(f"poptorch: the loss has shape {list(leaves[index].shape)}; reduce it to a "
                    "scalar (a loss function's reduction, or identity_loss with 'sum' or 'mean')")
    return outputs[index]
