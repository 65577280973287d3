"""The one list of ONNX node tests the popart backend does not run, each with its reason.

An entry excludes either every test of an ONNX op (`op=`) or the tests whose names match a regular
expression (`tests=`, matched against the test name without the runner's `_cpu` suffix). Ops the
issue puts in scope are excluded only test by test, each for a reason of its own.
"""
import re
from collections import namedtuple

import op_groups

Exclusion = namedtuple("Exclusion", "op tests reason")


def _op(op, reason):
    return Exclusion(op, None, reason)


def _tests(pattern, reason):
    return Exclusion(None, re.compile(pattern), reason)


_RNN = "recurrent layers are outside the issue's op list"
_QUANT = "quantised integer arithmetic is outside the issue's op list"
_SIGNAL = "signal-processing ops are outside the issue's op list"
_CONTROL = "control flow and sequences are outside the issue's op list"
_TRAINING = "ONNX's own training-step ops (ai.onnx.preview.training) are outside the issue's op " \
            "list; PopART trains through TrainingSession"
_SCATTER = "scatter/gather variants other than Gather are outside the issue's op list"
_OTHER = "outside the issue's op list"

EXCLUSIONS = [
    # Ops outside the scope.
    _op("Acos", _OTHER), _op("Acosh", _OTHER), _op("Asin", _OTHER), _op("Asinh", _OTHER),
    _op("Atan", _OTHER), _op("Atanh", _OTHER), _op("Cosh", _OTHER), _op("Sinh", _OTHER),
    _op("Tan", _OTHER),
    _op("Adagrad", _TRAINING), _op("Adam", _TRAINING), _op("Momentum", _TRAINING),
    _op("Bernoulli", "random sampling: the reference output depends on the generator's state"),
    _op("BitShift", "unsigned integer types (UINT8..UINT64) the IPU has no arithmetic for"),
    _op("BlackmanWindow", _SIGNAL), _op("HammingWindow", _SIGNAL), _op("HannWindow", _SIGNAL),
    _op("DFT", _SIGNAL), _op("STFT", _SIGNAL), _op("MelWeightMatrix", _SIGNAL),
    _op("CastLike", _OTHER), _op("Compress", "output shape depends on the data (a mask)"),
    _op("ConvInteger", _QUANT), _op("MatMulInteger", _QUANT), _op("QLinearConv", _QUANT),
    _op("QLinearMatMul", _QUANT), _op("QuantizeLinear", _QUANT),
    _op("DequantizeLinear", _QUANT), _op("DynamicQuantizeLinear", _QUANT),
    _op("DepthToSpace", _OTHER),
    _op("SpaceToDepth", _OTHER), _op("Det", _OTHER), _op("Einsum", _OTHER),
    _op("EyeLike", _OTHER),
    _op("GRU", _RNN), _op("LSTM", _RNN), _op("RNN", _RNN),
    _op("GatherND", _SCATTER), _op("Scatter", _SCATTER),
    _op("ScatterElements", _SCATTER), _op("ScatterND", _SCATTER),
    _op("GridSample", _OTHER), _op("Hardmax", _OTHER),
    _op("LRN", _OTHER), _op("MeanVarianceNormalization", _OTHER), _op("MaxUnpool", _OTHER),
    _op("If", _CONTROL), _op("Loop", _CONTROL), _op("Scan", _CONTROL),
    _op("SequenceInsert", _CONTROL), _op("SequenceMap", _CONTROL),
    _op("OptionalGetElement", _CONTROL), _op("OptionalHasElement", _CONTROL),
    _op("NonMaxSuppression", "output shape depends on the data (boxes kept)"),
    _op("NonZero", "output shape depends on the data"),
    _op("Unique", "output shape depends on the data"),
    _op("OneHot", _OTHER), _op("Range", "output shape depends on input values"),
    _op("ReverseSequence", _OTHER),
    _op("RoiAlign", _OTHER), _op("Shrink", _OTHER), _op("StringNormalizer",
                                                         "STRING tensors (the IPU holds numbers)"),
    _op("TfIdfVectorizer", _OTHER), _op("Trilu", _OTHER),
    _op(None, "a model of several ops that is not the expansion of one op"),
    # Tests of ops in scope.
    _tests(r"^test_training_dropout(_default)?(_mask)?$",
           "Dropout in training draws a random mask: the reference output comes from numpy's "
           "generator, which the device's does not reproduce"),
]


# Element types the device lacks, for every op: DOUBLE (no 64-bit floating point on the IPU),
# BFLOAT16 (not an IPU type: FLOAT16 is), STRING, and values that are not tensors.
TYPE_REASONS = {
    "DOUBLE": "DOUBLE data: the IPU has no 64-bit floating point",
    "BFLOAT16": "BFLOAT16 data: not an IPU element type (FLOAT16 is)",
    "STRING": "STRING data: the IPU holds numbers only",
    "SEQUENCE": "a sequence value: popart sessions take tensors only",
    "OPTIONAL": "an optional value: popart sessions take tensors only",
}
# For ops that compute (not views): results of integer types PopLibs has no arithmetic for. The
# IPU computes in FLOAT, HALF and 32-bit INT; 8- and 16-bit integers are storage types, and UINT64
# results would need 64-bit arithmetic.
ARITHMETIC_GROUPS = {"elementwise", "comparison", "reduction", "softmax", "matmul", "conv_pool"}
ARITHMETIC_TYPE_REASON = "8/16-bit or unsigned 64-bit integer arithmetic: the IPU computes in " \
                         "FLOAT, HALF and 32-bit integers"
ARITHMETIC_TYPES = {"UINT8", "INT8", "UINT16", "INT16", "UINT64"}


def reason(test):
    """Why a node test is excluded, or None when it runs."""
    op = op_groups.test_op(test)
    group = op_groups.test_group(test)
    if group != op_groups.OUT_OF_SCOPE:
        types = op_groups.test_types(test)
        for kind, why in TYPE_REASONS.items():
            if kind in types:
                return why
        if group in ARITHMETIC_GROUPS and op_groups.test_types(test, True) & ARITHMETIC_TYPES:
            return ARITHMETIC_TYPE_REASON
    for entry in EXCLUSIONS:
        if entry.tests is not None and entry.tests.search(test):
            return entry.reason
        if entry.tests is None and entry.op == op:
            return f"{op}: {entry.reason}" if op else entry.reason
    return None
