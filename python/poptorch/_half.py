"""Float16 models: torch 1.13 cannot run (and so cannot trace) float16 matmuls and convolutions
on the CPU, so a model with float16 parameters, buffers or inputs is exported in float32 and
its tensors are typed FLOAT16 afterwards, as PopTorch's own lowering would have typed them.

While exporting (`FloatExport`), the module's float16 parameters and buffers hold float32 copies
of their values, and `Tensor.half()`, `Tensor.float()` and `Tensor.to(dtype)` record the cast
as a poptorch::CastTo marker (computing in float32) instead of casting. `assign_types` then walks
the exported graph in order: graph inputs and initializers take the user's dtypes, markers
become ONNX Casts (dropped where the value has the type already), and every other FLOAT value
takes the type of the node's floating-point inputs. Where a node mixes FLOAT and FLOAT16:
- matmuls, convolutions and normalisations compute in FLOAT16 (PopTorch casts a float32 input
  of a half layer to half on the IPU, and a float32 layer's weights for half inputs);
- other ops follow torch's type promotion (FLOAT wins) unless
  Precision.halfFloatCasting(FloatDowncastToHalf) asks for FLOAT16;
- constants the exporter made (a scalar of `x * 0.5`, a symbolic's epsilon) take the other
  operand's type, as they would have in a float16 trace.
A Cast node (or a converted Constant) is inserted where an input changes type."""
import contextlib

import numpy as np
import onnx
import torch
from onnx import helper, numpy_helper

from .errors import Error

FLOAT = onnx.TensorProto.FLOAT
FLOAT16 = onnx.TensorProto.FLOAT16
_FLOATS = (FLOAT, FLOAT16)
_ONNX_TYPE = {torch.float16: FLOAT16, torch.float32: FLOAT}
_TYPE_NAMES = {FLOAT: "FLOAT", FLOAT16: "FLOAT16"}

# Ops whose floating-point inputs must share one type and that PopTorch runs in FLOAT16 when
# a FLOAT16 tensor meets a FLOAT one.
_HALF_WINS = {"MatMul", "Gemm", "Conv", "ConvTranspose", "BatchNormalization",
              "InstanceNormalization", "LayerNormalization", "GroupNormalization", "PRelu"}
# Inputs that are parameters of the op rather than data, which keep their own type.
_NOT_DATA = {"Resize": {1, 2}, "Upsample": {1}, "Dropout": {1, 2}}
# Ops whose FLOAT output is a constant the exporter made: it adapts to the type it meets.
_CONSTANT_OPS = {"Constant", "ConstantOfShape"}


def uses_float16(model, args):
    """Whether `model` (its parameters or buffers) or `args` hold float16 tensors."""
    tensors = list(model.parameters()) + list(model.buffers()) + list(args)
    return any(isinstance(t, torch.Tensor) and t.dtype == torch.float16 for t in tensors)


class _Cast(torch.autograd.Function):
    """A cast the model's forward asked for, computed in float32 and exported as a marker."""

    @staticmethod
    def forward(ctx, x, to):
        # Not x.float() on a float32 x: that returns x itself, and the tracer would then map
        # x to the cast's value (a Cast on everything x feeds after it).
        if x.dtype == torch.float32:
            return x.clone()
        return _ORIGINAL["to"](x, torch.float32)

    @staticmethod
    def symbolic(g, x, to):
        return g.op("poptorch::CastTo", x, type_s=_TYPE_NAMES[to])


_ORIGINAL = {"half": torch.Tensor.half, "float": torch.Tensor.float, "to": torch.Tensor.to}


def _tracing():
    return torch._C._get_tracing_state() is not None


def _half(self, *args, **kwargs):
    if not _tracing():
        return _ORIGINAL["half"](self, *args, **kwargs)
    return _Cast.apply(self, FLOAT16)


def _float(self, *args, **kwargs):
    if not _tracing():
        return _ORIGINAL["float"](self, *args, **kwargs)
    return _Cast.apply(self, FLOAT)


def _to(self, *args, **kwargs):
    """Tensor.to: a float16 or float32 dtype becomes a cast marker; the rest is torch's."""
    if not _tracing():
        return _ORIGINAL["to"](self, *args, **kwargs)
    dtype = kwargs.pop("dtype", None)
    rest = []
    for a in args:
        if isinstance(a, torch.dtype) and dtype is None:
            dtype = a
        else:
            rest.append(a)
    if dtype not in _ONNX_TYPE:
        if dtype is not None:
            kwargs["dtype"] = dtype
        return _ORIGINAL["to"](self, *rest, **kwargs)
    value = _ORIGINAL["to"](self, *rest, **kwargs) if rest or kwargs else self
    return _Cast.apply(value, _ONNX_TYPE[dtype])


@contextlib.contextmanager
def float_export(model, args):
    """Exports run inside this see `model` in float32 (see the module's comment); yields the
    arguments in float32 and {name: torch dtype} of the model's parameters and buffers, and the
    arguments' dtypes, as the user gave them."""
    dtypes = {name: t.dtype for name, t in list(model.named_parameters()) +
              list(model.named_buffers())}
    arg_dtypes = [a.dtype for a in args]
    saved = []
    seen = set()
    for t in list(model.parameters()) + list(model.buffers()):
        if t.dtype == torch.float16 and id(t) not in seen:
            seen.add(id(t))
            saved.append((t, t.data))
            t.data = t.data.float()
    float_args = tuple(a.float() if a.dtype == torch.float16 else a for a in args)
    torch.Tensor.half, torch.Tensor.float, torch.Tensor.to = _half, _float, _to
    try:
        yield float_args, dtypes, arg_dtypes
    finally:
        torch.Tensor.half = _ORIGINAL["half"]
        torch.Tensor.float = _ORIGINAL["float"]
        torch.Tensor.to = _ORIGINAL["to"]
        for t, data in saved:
            t.data = data


def _set_elem_type(value_infos, name, elem_type):
    for v in value_infos:
        if v.name == name:
            v.type.tensor_type.elem_type = elem_type


def _export_types(proto):
    """name -> ONNX element type of the float32 export, by ONNX's type inference (ops of other
    domains, which it does not know, leave their outputs untyped)."""
    imported = {o.domain for o in proto.opset_import}
    for domain in sorted({n.domain for n in proto.graph.node} - imported - {"", "ai.onnx"}):
        proto.opset_import.append(helper.make_opsetid(domain, 1))
    try:
        inferred = onnx.shape_inference.infer_shapes(proto)
    except Exception as e:  # onnx raises several unrelated types
        raise Error(f"poptorch: the float16 model's types cannot be inferred: {e}") from None
    types = {}
    for v in list(inferred.graph.input) + list(inferred.graph.value_info) + list(
            inferred.graph.output):
        if v.type.tensor_type.elem_type:
            types[v.name] = v.type.tensor_type.elem_type
    for init in proto.graph.initializer:
        types[init.name] = init.data_type
    return types


class _Typing:
    """The walk of assign_types: logical types, and the nodes of the rewritten graph."""

    def __init__(self, graph, export_types, downcast):
        self.graph = graph
        self.export = export_types
        self.downcast = downcast
        self.types = {}
        self.constants = {}  # Constant output -> its TensorProto value
        self.converted = {}  # (name, type) -> name of the value in that type
        self.nodes = []
        self.renames = {}

    def convert(self, node, name, to, k):
        """The name of value `name` in type `to`: a converted copy of a constant, else a Cast
        inserted before `node`."""
        key = (name, to)
        if key in self.converted:
            return self.converted[key]
        scope = node.name.rsplit("/", 1)[0] if "/" in node.name else ""
        suffix = "Half" if to == FLOAT16 else "Float"
        if name in self.constants:
            value = numpy_helper.to_array(self.constants[name])
            value = value.astype(np.float16 if to == FLOAT16 else np.float32)
            new = f"{name}_as{suffix}"
            self.nodes.append(helper.make_node("Constant", [], [new], name=f"{new}/Constant",
                                               value=numpy_helper.from_array(value, new)))
            self.constants[new] = numpy_helper.from_array(value, new)
        else:
            new = f"{name}_cast{suffix}"
            self.nodes.append(helper.make_node("Cast", [name], [new], to=to,
                                               name=f"{scope}/Cast{suffix}_{node.op_type}_{k}"))
        self.types[new] = to
        self.converted[key] = new
        return new

    def visit(self, node):
        for i, name in enumerate(node.input):
            if name in self.renames:
                node.input[i] = self.renames[name]
        if node.op_type == "Cast":
            to = next(a.i for a in node.attribute if a.name == "to")
            marker = any(a.name == "__poptorch_marker" for a in node.attribute)
            if marker:
                for a in list(node.attribute):
                    if a.name == "__poptorch_marker":
                        node.attribute.remove(a)
                if self.types.get(node.input[0]) == to:
                    self.renames[node.output[0]] = node.input[0]
                    return
            self.types[node.output[0]] = to
            self.nodes.append(node)
            return
        if node.op_type in _CONSTANT_OPS:
            for o in node.output:
                self.types[o] = self.export.get(o, FLOAT)
            if node.op_type == "Constant":
                value = next((a.t for a in node.attribute if a.name == "value"), None)
                if value is not None and value.data_type in _FLOATS:
                    self.constants[node.output[0]] = value
            self.nodes.append(node)
            return
        skip = _NOT_DATA.get(node.op_type, set())
        floats = [(i, n) for i, n in enumerate(node.input)
                  if n and i not in skip and self.types.get(n) in _FLOATS]
        kinds = {self.types[n] for _, n in floats}
        target = next(iter(kinds)) if len(kinds) == 1 else None
        if len(kinds) == 2:
            target = self._resolve(node, floats)
            for i, n in floats:
                if self.types[n] != target:
                    node.input[i] = self.convert(node, n, target, i)
        for o in node.output:
            if not o:
                continue
            exported = self.export.get(o)
            if exported == FLOAT or (exported is None and target is not None):
                self.types[o] = target if target is not None else FLOAT
            elif exported is not None:
                self.types[o] = exported
        self.nodes.append(node)

    def _resolve(self, node, floats):
        """The type a node mixing FLOAT and FLOAT16 inputs computes in (the module's comment)."""
        if node.op_type in _HALF_WINS or self.downcast:
            return FLOAT16
        computed = {self.types[n] for _, n in floats if n not in self.constants}
        return FLOAT16 if computed == {FLOAT16} else FLOAT


def assign_types(proto, dtypes, input_names, arg_dtypes, downcast):
    """Types the float32 export `proto` as the model's dtypes ask (the module's comment):
    `dtypes` maps parameter and buffer names to torch dtypes, `input_names` and `arg_dtypes` are
    the graph inputs of the call's arguments and their dtypes, `downcast` is
    HalfFloatCastingBehavior.FloatDowncastToHalf."""
    graph = proto.graph
    for node in graph.node:
        if node.domain == "poptorch" and node.op_type == "CastTo":
            to = next(a.s for a in node.attribute if a.name == "type")
            to = FLOAT16 if (to.decode() if isinstance(to, bytes) else to) == "FLOAT16" else FLOAT
            del node.attribute[:]
            node.domain = ""
            node.op_type = "Cast"
            # torch named it after the marker ("/CastTo", "/encoder/CastTo_1").
            scope, _, last = node.name.rpartition("/")
            node.name = f"{scope}/{last.replace('CastTo', 'Cast', 1)}"
            node.attribute.extend([helper.make_attribute("to", to),
                                   helper.make_attribute("__poptorch_marker", 1)])
    export_types = _export_types(_without_marks(proto))
    typing = _Typing(graph, export_types, downcast)
    for name, dtype in zip(input_names, arg_dtypes):
        if dtype == torch.float16:
            _set_elem_type(graph.input, name, FLOAT16)
    for v in graph.input:
        typing.types[v.name] = v.type.tensor_type.elem_type
    for k, init in enumerate(graph.initializer):
        if dtypes.get(init.name) == torch.float16 and init.data_type == FLOAT:
            value = numpy_helper.to_array(init).astype(np.float16)
            graph.initializer[k].CopyFrom(numpy_helper.from_array(value, init.name))
            _set_elem_type(graph.input, init.name, FLOAT16)
        typing.types[init.name] = graph.initializer[k].data_type
    for node in list(graph.node):
        typing.visit(node)
    del graph.node[:]
    graph.node.extend(typing.nodes)
    for out in graph.output:
        if out.name in typing.renames:
            out.name = typing.renames[out.name]
        if out.name in typing.types:
            out.type.tensor_type.elem_type = typing.types[out.name]
    del graph.value_info[:]
    return typing.types


def _without_marks(proto):
    """A copy of `proto` without the marker attributes ONNX's checker would refuse."""
    copy = onnx.ModelProto()
    copy.CopyFrom(proto)
    for node in copy.graph.node:
        for a in list(node.attribute):
            if a.name == "__poptorch_marker":
                node.attribute.remove(a)
    return copy
