"""popart.Builder: PopART's Python builder over the native `_BuilderCore`. The ONNX op set is
chosen once per builder (by `opsets`, or by the first `aiOnnx`/`aiOnnxOpsetN` used); the context
managers `nameScope`, `virtualGraph(n)` and `pipelineStage(n)` annotate the nodes added inside."""
import contextlib
import re

import numpy as np

import popart
from popart.popart_core import _BuilderCore


class Builder:
    """Builds an ONNX model op by op, as PopART's Builder: `aiOnnx.<op>(args, ...)`,
    `aiGraphcore.<op>(...)`, inputs, initialised inputs (weights) and outputs."""

    def __init__(self, modelProtoOrFilename=None, opsets=None, builderCore=None):
        if builderCore is not None:
            self._impl = builderCore
        elif modelProtoOrFilename is not None:
            self._impl = _BuilderCore(modelProtoOrFilename)
        else:
            self._impl = _BuilderCore()
        self._onnxVersion = None
        if opsets:
            unknown = set(opsets) - {"ai.onnx", "ai.graphcore"}
            if unknown:
                raise ValueError(f"Builder: unknown op-set domains {sorted(unknown)}")
            self._onnxVersion = opsets.get("ai.onnx")
            graphcore = opsets.get("ai.graphcore", popart.defaultAiGraphcoreOpset)
            if graphcore != 1:
                raise ValueError(f"Builder: ai.graphcore op set {graphcore} is not supported "
                                 "(version 1 is)")
        self.aiGraphcore = self._impl.aiGraphcoreOpset1
        self.aiGraphcoreOpset1 = self.aiGraphcore

    def _onnxOpset(self, version):
        if self._onnxVersion is None:
            self._onnxVersion = version
        elif version != self._onnxVersion:
            raise RuntimeError(f"Invalid opset 'aiOnnxOpset{version}' selected. Opset for domain "
                               f"ai.onnx already defined as {self._onnxVersion}")
        return self._impl.aiOnnxOpset(version)

    @property
    def aiOnnx(self):
        return self._onnxOpset(self._onnxVersion or popart.defaultAiOnnxOpset)

    def aiOnnxOpsetVersion(self, version):
        self._onnxOpset(version)

    def __getattr__(self, name):
        match = re.fullmatch(r"aiOnnxOpset(\d+)", name)
        if match:
            return self._onnxOpset(int(match.group(1)))
        return getattr(self._impl, name)

    @contextlib.contextmanager
    def nameScope(self, name):
        self._impl.pushNameScope(name)
        try:
            yield
        finally:
            self._impl.popNameScope()

    @contextlib.contextmanager
    def _scopedAttribute(self, attribute, value):
        previous = self._impl.getInt64Attribute(attribute) if self._impl.hasAttribute(
            attribute) else None
        self._impl.setAttribute(attribute, value)
        try:
            yield
        finally:
            if previous is None:
                self._impl.clearAttribute(attribute)
            else:
                self._impl.setAttribute(attribute, previous)

    def virtualGraph(self, *args, **kwargs):
        """`with builder.virtualGraph(ipu):` places the nodes added inside on an IPU;
        `builder.virtualGraph(tensorId, ipu)` places the node producing a tensor."""
        if len(args) == 1 and not kwargs and isinstance(args[0], int):
            return self._scopedAttribute("__ipu_number", args[0])
        return self._impl.virtualGraph(*args, **kwargs)

    def pipelineStage(self, *args, **kwargs):
        """`with builder.pipelineStage(n):` or `builder.pipelineStage(tensorId, n)`."""
        if len(args) == 1 and not kwargs and isinstance(args[0], int):
            return self._scopedAttribute("__pipeline_stage", args[0])
        return self._impl.pipelineStage(*args, **kwargs)

    def reshape_const(self, aiOnnx, args, shape, debugContext=""):
        """Reshape to a constant shape (the shape becomes an INT64 constant input)."""
        newShape = aiOnnx.constant(np.array(shape).astype(np.int64), debugContext + "_const")
        return aiOnnx.reshape([args[0], newShape], debugContext)

    def createSubgraphBuilder(self):
        raise popart.popart_exception("Builder.createSubgraphBuilder: subgraphs (call, if, loop) "
                                      "are not supported by TileScope's popart")
