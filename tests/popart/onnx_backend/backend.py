"""An ONNX backend (onnx.backend.base) over the `popart` module: prepare() compiles the model
with an InferenceSession for a small IPU Model; run() feeds the inputs through a PyStepIO and
returns the anchors of the graph outputs.

What the device needs that the test models do not give: static shapes. An IPU program is
compiled for fixed shapes, so an input that gives a shape, axes, pads, repeats or a count
(Reshape's `shape`, Slice's `starts`, ...) must be known when the graph is compiled. Such inputs
are made constants with the values of the first run, and the compile happens then; a later run
with other values is refused (the session would be wrong for them).

INT64 tensors need nothing here: popart holds them as 32-bit integers on the device and converts
on the way in and out.
"""
import numpy as np
import onnx
import onnx.backend.base
from onnx import helper, numpy_helper

import popart

# Tiles of the IPU Model the tests compile for: the node tests' tensors are tiny, and the compile
# time grows with the tile count.
TEST_TILES = 4

# Inputs (by position) that the op needs at compile time, and the first opset where they are inputs
# rather than attributes.
_STATIC_INPUTS = {
    "Reshape": ({1}, 5),
    "Expand": ({1}, 8),
    "Tile": ({1}, 6),
    "Slice": ({1, 2, 3, 4}, 10),
    "ConstantOfShape": ({0}, 9),
    "Pad": ({1, 3}, 11),
    "Split": ({1}, 13),
    "Squeeze": ({1}, 13),
    "Unsqueeze": ({1}, 13),
    "Dropout": ({1, 2}, 12),  # ratio, training_mode
    "ReduceSum": ({1}, 13),
    "ReduceMean": ({1}, 18),
    "ReduceMax": ({1}, 18),
    "ReduceMin": ({1}, 18),
    "ReduceProd": ({1}, 18),
    "ReduceL1": ({1}, 18),
    "ReduceL2": ({1}, 18),
    "ReduceLogSum": ({1}, 18),
    "ReduceLogSumExp": ({1}, 18),
    "ReduceSumSquare": ({1}, 18),
    "CumSum": ({1}, 11),  # axis
    "TopK": ({1}, 10),  # K
    "Resize": ({1, 2, 3}, 10),  # roi, scales, sizes (scales only at opset 10)
    "Upsample": ({1}, 9),
}

def _opset(model):
    for imp in model.opset_import:
        if imp.domain in ("", "ai.onnx"):
            return imp.version
    return 1


def static_inputs(model):
    """Names of graph inputs whose values the compile needs (see the module comment)."""
    opset = _opset(model)
    graph_inputs = {i.name for i in model.graph.input} - {t.name for t in model.graph.initializer}
    names = set()
    for node in model.graph.node:
        slots, since = _STATIC_INPUTS.get(node.op_type, (set(), 0))
        if opset < since:
            continue
        for slot in slots:
            if slot < len(node.input) and node.input[slot] in graph_inputs:
                names.add(node.input[slot])
    return names


class PopartBackendRep(onnx.backend.base.BackendRep):
    """A model compiled for the IPU Model; compiled at the first run() when inputs give shapes."""

    def __init__(self, model):
        self._model = model
        self._static = static_inputs(model)
        self._static_values = None
        initializers = {t.name for t in model.graph.initializer}
        self._feeds = [i.name for i in model.graph.input if i.name not in initializers]
        self._output_types = [
            onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[o.type.tensor_type.elem_type]
            for o in model.graph.output
        ]
        self._session = None
        if not self._static:
            self._compile(model)

    def _compile(self, model):
        self._outputs = [o.name for o in model.graph.output]
        anchors = {name: popart.AnchorReturnType("ALL") for name in self._outputs}
        device = popart.DeviceManager().createIpuModelDevice({"numIPUs": 1, "tilesPerIPU": TEST_TILES})
        self._session = popart.InferenceSession(fnModel=model.SerializeToString(),
                                                dataFlow=popart.DataFlow(1, anchors),
                                                deviceInfo=device)
        self._session.prepareDevice()
        self._anchors = self._session.initAnchorArrays()

    def _specialise(self, values):
        """Compile with the static inputs made Constant nodes of the given values (constants of
        the model, where an initializer of a floating-point type would be a weight)."""
        model = onnx.ModelProto()
        model.CopyFrom(self._model)
        kept = [i for i in model.graph.input if i.name not in self._static]
        del model.graph.input[:]
        model.graph.input.extend(kept)
        constants = [
            helper.make_node("Constant", [], [name], name=f"static_{name}",
                             value=numpy_helper.from_array(np.asarray(value), name))
            for name, value in sorted(values.items())
        ]
        nodes = constants + list(model.graph.node)
        del model.graph.node[:]
        model.graph.node.extend(nodes)
        self._compile(model)
        self._static_values = values

    def run(self, inputs, **kwargs):
        if len(inputs) != len(self._feeds):
            raise ValueError(f"the model takes {len(self._feeds)} inputs, {len(inputs)} given")
        given = dict(zip(self._feeds, inputs))
        if self._static:
            values = {name: np.asarray(given[name]) for name in self._static}
            if self._static_values is None:
                self._specialise(values)
            elif any(not np.array_equal(values[n], self._static_values[n]) for n in values):
                raise ValueError("inputs that give shapes changed since the compile: "
                                 + ", ".join(sorted(self._static)))
        feeds = {
            name: np.ascontiguousarray(value)
            for name, value in given.items() if name not in self._static
        }
        self._session.run(popart.PyStepIO(feeds, self._anchors))
        return tuple(
            np.asarray(self._anchors[name]).astype(dtype, copy=True)
            for name, dtype in zip(self._outputs, self._output_types))


class PopartBackend(onnx.backend.base.Backend):
    """The backend the runner calls: models on the IPU Model (the runner's `CPU` device: the
    simulator runs on the host); no CUDA."""

    @classmethod
    def prepare(cls, model, device="CPU", **kwargs):
        super().prepare(model, device, **kwargs)
        return PopartBackendRep(model)

    @classmethod
    def supports_device(cls, device):
        return device == "CPU"
