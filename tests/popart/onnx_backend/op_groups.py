"""Which ONNX op a node test exercises and which op group of the issue it belongs to.

A node test directory holds one model; its op is the model's single node, or for an `_expanded`
test (the op's function body, several nodes) the op of the test it expands. The groups follow the
issue's list of ops in scope; every other op is `out of scope`.
"""
import os

import onnx

NODE_DATA = os.path.join(os.path.dirname(os.path.realpath(onnx.__file__)), "backend", "test", "data",
                         "node")

GROUPS = {
    "matmul": ["MatMul", "Gemm"],
    "elementwise": [
        "Abs", "Add", "Ceil", "Celu", "Clip", "Cos", "Div", "Elu", "Erf", "Exp", "Floor",
        "HardSigmoid", "HardSwish", "IsInf", "IsNaN", "LeakyRelu", "Log", "Max", "Mean", "Min",
        "Mod", "Mul", "Neg", "Pow", "PRelu", "Reciprocal", "Relu", "Round", "Selu", "Sigmoid",
        "Sign", "Sin", "Softplus", "Softsign", "Sqrt", "Sub", "Sum", "Tanh", "ThresholdedRelu"
    ],
    "comparison": [
        "And", "Equal", "Greater", "GreaterOrEqual", "Less", "LessOrEqual", "Not", "Or", "Xor"
    ],
    "reduction": [
        "ArgMax", "ArgMin", "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax",
        "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare", "CumSum", "TopK"
    ],
    "softmax": ["Softmax", "LogSoftmax"],
    "views": [
        "Concat", "Constant", "ConstantOfShape", "Expand", "Flatten", "Gather", "GatherElements",
        "Identity", "Pad",
        "Reshape", "Shape", "Size", "Slice", "Split", "Squeeze", "Tile", "Transpose", "Unsqueeze"
    ],
    "cast_where": ["Cast", "Where"],
    "normalisation": ["BatchNormalization", "InstanceNormalization", "LayerNormalization"],
    "conv_pool": [
        "Conv", "ConvTranspose", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool",
        "Resize", "Upsample"
    ],
    "losses": ["NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss"],
    "dropout": ["Dropout"],
}
OP_GROUP = {op: group for group, ops in GROUPS.items() for op in ops}
OUT_OF_SCOPE = "out of scope"


def node_test_names():
    """Every node test directory of the installed test data, sorted."""
    return sorted(d for d in os.listdir(NODE_DATA) if os.path.isdir(os.path.join(NODE_DATA, d)))


def _single_op(name):
    path = os.path.join(NODE_DATA, name, "model.onnx")
    if not os.path.isfile(path):
        return None
    nodes = onnx.load(path).graph.node
    return nodes[0].op_type if len(nodes) == 1 else None


def test_op(name):
    """The ONNX op a node test exercises (None when it has several nodes and no base test)."""
    op = _single_op(name)
    if op is not None:
        return op
    # `test_x_expanded` and `test_x_expanded_ver18` expand the op of `test_x`.
    for marker in ("_expanded_ver18", "_expanded"):
        if marker in name:
            return _single_op(name[:name.index(marker)])
    return None


def test_types(name, outputs_only=False):
    """The element types (ONNX names) of a node test model's inputs and outputs (or outputs
    only); "SEQUENCE" or "OPTIONAL" for values that are not tensors."""
    model = onnx.load(os.path.join(NODE_DATA, name, "model.onnx"))
    types = set()
    values = [] if outputs_only else list(model.graph.input)
    for value in values + list(model.graph.output):
        kind = value.type.WhichOneof("value")
        if kind == "tensor_type":
            types.add(onnx.TensorProto.DataType.Name(value.type.tensor_type.elem_type))
        else:
            types.add(kind.replace("_type", "").upper())
    return types


def test_group(name):
    return OP_GROUP.get(test_op(name), OUT_OF_SCOPE)
