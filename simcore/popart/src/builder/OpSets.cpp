// The op-set methods of the Builder: each adds one node, moving attributes that became inputs
// at the op set's version into constant inputs.
#include "builder/BuilderImpl.hpp"

#include <popart/builder.hpp>
#include <popart/error.hpp>

namespace popart {

std::vector<TensorId> DomainOpSet::node(const std::string& opType,
                                        const std::vector<TensorId>& args, unsigned numOutputs,
                                        const OpAttributes& attributes,
                                        const DebugContext& debugContext) {
    return impl_->addNode(domain_, version_, opType, args, numOutputs, attributes, debugContext);
}

TensorId DomainOpSet::int64Constant(const std::vector<int64_t>& values, const std::string& name) {
    OpAttributes a;
    a.set("value",
          ConstVoidData(values.data(), TensorInfo(DataType::INT64, Shape{int64_t(values.size())})));
    return impl_->addNode("", version_, "Constant", {}, 1, a, name)[0];
}

TensorId DomainOpSet::floatConstant(float value, const std::string& name) {
    OpAttributes a;
    a.set("value", ConstVoidData(&value, TensorInfo(DataType::FLOAT, Shape{})));
    return impl_->addNode("", version_, "Constant", {}, 1, a, name)[0];
}

#define POPART_DEFINE_SIMPLE(method, Type)                                                         \
    TensorId AiOnnxOpset::method(const std::vector<TensorId>& args,                                \
                                 const DebugContext& debugContext) {                               \
        return node1(Type, args, {}, debugContext);                                                \
    }
POPART_DEFINE_SIMPLE(abs, "Abs")
POPART_DEFINE_SIMPLE(ceil, "Ceil")
POPART_DEFINE_SIMPLE(cos, "Cos")
POPART_DEFINE_SIMPLE(erf, "Erf")
POPART_DEFINE_SIMPLE(exp, "Exp")
POPART_DEFINE_SIMPLE(floor, "Floor")
POPART_DEFINE_SIMPLE(identity, "Identity")
POPART_DEFINE_SIMPLE(log, "Log")
POPART_DEFINE_SIMPLE(logical_not, "Not")
POPART_DEFINE_SIMPLE(neg, "Neg")
POPART_DEFINE_SIMPLE(reciprocal, "Reciprocal")
POPART_DEFINE_SIMPLE(relu, "Relu")
POPART_DEFINE_SIMPLE(round, "Round")
POPART_DEFINE_SIMPLE(sigmoid, "Sigmoid")
POPART_DEFINE_SIMPLE(sign, "Sign")
POPART_DEFINE_SIMPLE(sin, "Sin")
POPART_DEFINE_SIMPLE(softplus, "Softplus")
POPART_DEFINE_SIMPLE(softsign, "Softsign")
POPART_DEFINE_SIMPLE(sqrt, "Sqrt")
POPART_DEFINE_SIMPLE(tanh, "Tanh")
POPART_DEFINE_SIMPLE(shape, "Shape")
POPART_DEFINE_SIMPLE(globalaveragepool, "GlobalAveragePool")
POPART_DEFINE_SIMPLE(globalmaxpool, "GlobalMaxPool")
POPART_DEFINE_SIMPLE(add, "Add")
POPART_DEFINE_SIMPLE(sub, "Sub")
POPART_DEFINE_SIMPLE(mul, "Mul")
POPART_DEFINE_SIMPLE(div, "Div")
POPART_DEFINE_SIMPLE(pow, "Pow")
POPART_DEFINE_SIMPLE(max, "Max")
POPART_DEFINE_SIMPLE(min, "Min")
POPART_DEFINE_SIMPLE(sum, "Sum")
POPART_DEFINE_SIMPLE(mean, "Mean")
POPART_DEFINE_SIMPLE(equal, "Equal")
POPART_DEFINE_SIMPLE(less, "Less")
POPART_DEFINE_SIMPLE(greater, "Greater")
POPART_DEFINE_SIMPLE(lessorequal, "LessOrEqual")
POPART_DEFINE_SIMPLE(greaterorequal, "GreaterOrEqual")
POPART_DEFINE_SIMPLE(logical_and, "And")
POPART_DEFINE_SIMPLE(logical_or, "Or")
POPART_DEFINE_SIMPLE(logical_xor, "Xor")
POPART_DEFINE_SIMPLE(matmul, "MatMul")
POPART_DEFINE_SIMPLE(where, "Where")
POPART_DEFINE_SIMPLE(expand, "Expand")
POPART_DEFINE_SIMPLE(reshape, "Reshape")
POPART_DEFINE_SIMPLE(tile, "Tile")
#undef POPART_DEFINE_SIMPLE

TensorId AiOnnxOpset::gemm(const std::vector<TensorId>& args, float alpha, float beta,
                           int64_t transA, int64_t transB, const DebugContext& debugContext) {
    OpAttributes a;
    a.set("alpha", alpha).set("beta", beta).set("transA", transA).set("transB", transB);
    return node1("Gemm", args, a, debugContext);
}

TensorId AiOnnxOpset::leakyrelu(const std::vector<TensorId>& args, float alpha,
                                const DebugContext& debugContext) {
    return node1("LeakyRelu", args, OpAttributes().set("alpha", alpha), debugContext);
}

TensorId AiOnnxOpset::elu(const std::vector<TensorId>& args, float alpha,
                          const DebugContext& debugContext) {
    return node1("Elu", args, OpAttributes().set("alpha", alpha), debugContext);
}

TensorId AiOnnxOpset::selu(const std::vector<TensorId>& args, float alpha, float gamma,
                           const DebugContext& debugContext) {
    return node1("Selu", args, OpAttributes().set("alpha", alpha).set("gamma", gamma),
                 debugContext);
}

TensorId AiOnnxOpset::hardsigmoid(const std::vector<TensorId>& args, float alpha, float beta,
                                  const DebugContext& debugContext) {
    return node1("HardSigmoid", args, OpAttributes().set("alpha", alpha).set("beta", beta),
                 debugContext);
}

TensorId AiOnnxOpset::clip(const std::vector<TensorId>& args, float max, float min,
                           const DebugContext& debugContext) {
    if (version_ < 11)
        return node1("Clip", args, OpAttributes().set("max", max).set("min", min), debugContext);
    std::vector<TensorId> inputs = args;
    if (args.size() == 1) {
        inputs.push_back(floatConstant(min, "clip_min"));
        inputs.push_back(floatConstant(max, "clip_max"));
    }
    return node1("Clip", inputs, {}, debugContext);
}

TensorId AiOnnxOpset::softmax(const std::vector<TensorId>& args, int64_t axis,
                              const DebugContext& debugContext) {
    OpAttributes a;
    if (axis != OnnxDefaultAxis)
        a.set("axis", axis);
    return node1("Softmax", args, a, debugContext);
}

TensorId AiOnnxOpset::logsoftmax(const std::vector<TensorId>& args, int64_t axis,
                                 const DebugContext& debugContext) {
    OpAttributes a;
    if (axis != OnnxDefaultAxis)
        a.set("axis", axis);
    return node1("LogSoftmax", args, a, debugContext);
}

#define POPART_DEFINE_REDUCE(method, Type, axesInputFrom)                                          \
    TensorId AiOnnxOpset::method(const std::vector<TensorId>& args,                                \
                                 const std::vector<int64_t>& axes, int64_t keepdims,               \
                                 const DebugContext& debugContext) {                               \
        OpAttributes a;                                                                            \
        a.set("keepdims", keepdims);                                                               \
        std::vector<TensorId> inputs = args;                                                       \
        if (!axes.empty()) {                                                                       \
            if (version_ >= axesInputFrom && args.size() == 1)                                     \
                inputs.push_back(int64Constant(axes, Type "_axes"));                               \
            else if (version_ < axesInputFrom)                                                     \
                a.set("axes", axes);                                                               \
        }                                                                                          \
        return node1(Type, inputs, a, debugContext);                                               \
    }
// ReduceSum takes its axes as an input from opset 13, the others from opset 18.
POPART_DEFINE_REDUCE(reducesum, "ReduceSum", 13)
POPART_DEFINE_REDUCE(reducemean, "ReduceMean", 18)
POPART_DEFINE_REDUCE(reducemax, "ReduceMax", 18)
POPART_DEFINE_REDUCE(reducemin, "ReduceMin", 18)
POPART_DEFINE_REDUCE(reduceprod, "ReduceProd", 18)
POPART_DEFINE_REDUCE(reducel1, "ReduceL1", 18)
POPART_DEFINE_REDUCE(reducel2, "ReduceL2", 18)
POPART_DEFINE_REDUCE(reducelogsum, "ReduceLogSum", 18)
POPART_DEFINE_REDUCE(reducelogsumexp, "ReduceLogSumExp", 18)
POPART_DEFINE_REDUCE(reducesumsquare, "ReduceSumSquare", 18)
#undef POPART_DEFINE_REDUCE

TensorId AiOnnxOpset::argmax(const std::vector<TensorId>& args, int64_t axis, int64_t keepdims,
                             const DebugContext& debugContext) {
    return node1("ArgMax", args, OpAttributes().set("axis", axis).set("keepdims", keepdims),
                 debugContext);
}

TensorId AiOnnxOpset::argmin(const std::vector<TensorId>& args, int64_t axis, int64_t keepdims,
                             const DebugContext& debugContext) {
    return node1("ArgMin", args, OpAttributes().set("axis", axis).set("keepdims", keepdims),
                 debugContext);
}

std::vector<TensorId> AiOnnxOpset::batchnormalization(const std::vector<TensorId>& args,
                                                      unsigned num_outputs, float epsilon,
                                                      float momentum,
                                                      const DebugContext& debugContext) {
    return node("BatchNormalization", args, num_outputs,
                OpAttributes().set("epsilon", epsilon).set("momentum", momentum), debugContext);
}

TensorId AiOnnxOpset::layernormalization(const std::vector<TensorId>& args, int64_t axis,
                                         float epsilon, const DebugContext& debugContext) {
    if (version_ < 17)
        throw error("LayerNormalization is an ONNX op from opset 17, not " +
                    std::to_string(version_));
    return node1("LayerNormalization", args,
                 OpAttributes().set("axis", axis).set("epsilon", epsilon), debugContext);
}

std::vector<TensorId> AiOnnxOpset::dropout(const std::vector<TensorId>& args, unsigned num_outputs,
                                           float ratio, const DebugContext& debugContext) {
    if (version_ < 12)
        return node("Dropout", args, num_outputs, OpAttributes().set("ratio", ratio), debugContext);
    std::vector<TensorId> inputs = args;
    if (args.size() == 1 && ratio != 0.5f)
        inputs.push_back(floatConstant(ratio, "dropout_ratio"));
    return node("Dropout", inputs, num_outputs, {}, debugContext);
}

std::vector<TensorId> AiOnnxOpset::softmaxcrossentropyloss(const std::vector<TensorId>& args,
                                                           unsigned num_outputs,
                                                           const std::string& reduction,
                                                           OptionalInt ignore_index,
                                                           const DebugContext& debugContext) {
    OpAttributes a;
    a.set("reduction", reduction);
    if (ignore_index.has_value())
        a.set("ignore_index", ignore_index.value());
    return node("SoftmaxCrossEntropyLoss", args, num_outputs, a, debugContext);
}

TensorId AiOnnxOpset::negativeloglikelihoodloss(const std::vector<TensorId>& args,
                                                const std::string& reduction,
                                                OptionalInt ignore_index,
                                                const DebugContext& debugContext) {
    OpAttributes a;
    a.set("reduction", reduction);
    if (ignore_index.has_value())
        a.set("ignore_index", ignore_index.value());
    return node1("NegativeLogLikelihoodLoss", args, a, debugContext);
}

TensorId AiOnnxOpset::conv(const std::vector<TensorId>& args, const std::vector<int64_t>& dilations,
                           int64_t group, const std::vector<int64_t>& kernel_shape,
                           const std::vector<int64_t>& pads, const std::vector<int64_t>& strides,
                           const DebugContext& debugContext) {
    OpAttributes a;
    a.set("group", group);
    if (!dilations.empty())
        a.set("dilations", dilations);
    if (!kernel_shape.empty())
        a.set("kernel_shape", kernel_shape);
    if (!pads.empty())
        a.set("pads", pads);
    if (!strides.empty())
        a.set("strides", strides);
    return node1("Conv", args, a, debugContext);
}

std::vector<TensorId> AiOnnxOpset::maxpool(const std::vector<TensorId>& args, unsigned num_outputs,
                                           const std::vector<int64_t>& kernel_shape,
                                           int64_t ceil_mode, const std::vector<int64_t>& dilations,
                                           const std::vector<int64_t>& pads, int64_t storage_order,
                                           const std::vector<int64_t>& strides,
                                           const DebugContext& debugContext) {
    OpAttributes a;
    a.set("kernel_shape", kernel_shape).set("storage_order", storage_order);
    if (version_ >= 10) {
        a.set("ceil_mode", ceil_mode);
        if (!dilations.empty())
            a.set("dilations", dilations);
    }
    if (!pads.empty())
        a.set("pads", pads);
    if (!strides.empty())
        a.set("strides", strides);
    return node("MaxPool", args, num_outputs, a, debugContext);
}

TensorId AiOnnxOpset::averagepool(const std::vector<TensorId>& args,
                                  const std::vector<int64_t>& kernel_shape, int64_t ceil_mode,
                                  int64_t count_include_pad, const std::vector<int64_t>& pads,
                                  const std::vector<int64_t>& strides,
                                  const DebugContext& debugContext) {
    OpAttributes a;
    a.set("kernel_shape", kernel_shape).set("count_include_pad", count_include_pad);
    if (version_ >= 10)
        a.set("ceil_mode", ceil_mode);
    if (!pads.empty())
        a.set("pads", pads);
    if (!strides.empty())
        a.set("strides", strides);
    return node1("AveragePool", args, a, debugContext);
}

TensorId AiOnnxOpset::flatten(const std::vector<TensorId>& args, int64_t axis,
                              const DebugContext& debugContext) {
    return node1("Flatten", args, OpAttributes().set("axis", axis), debugContext);
}

TensorId AiOnnxOpset::transpose(const std::vector<TensorId>& args, const std::vector<int64_t>& perm,
                                const DebugContext& debugContext) {
    OpAttributes a;
    if (!perm.empty())
        a.set("perm", perm);
    return node1("Transpose", args, a, debugContext);
}

TensorId AiOnnxOpset::squeeze(const std::vector<TensorId>& args, const std::vector<int64_t>& axes,
                              const DebugContext& debugContext) {
    OpAttributes a;
    std::vector<TensorId> inputs = args;
    if (!axes.empty()) {
        if (version_ < 13)
            a.set("axes", axes);
        else if (args.size() == 1)
            inputs.push_back(int64Constant(axes, "squeeze_axes"));
    }
    return node1("Squeeze", inputs, a, debugContext);
}

TensorId AiOnnxOpset::unsqueeze(const std::vector<TensorId>& args, const std::vector<int64_t>& axes,
                                const DebugContext& debugContext) {
    OpAttributes a;
    std::vector<TensorId> inputs = args;
    if (version_ < 13)
        a.set("axes", axes);
    else if (args.size() == 1)
        inputs.push_back(int64Constant(axes, "unsqueeze_axes"));
    return node1("Unsqueeze", inputs, a, debugContext);
}

TensorId AiOnnxOpset::concat(const std::vector<TensorId>& args, int64_t axis,
                             const DebugContext& debugContext) {
    return node1("Concat", args, OpAttributes().set("axis", axis), debugContext);
}

TensorId AiOnnxOpset::slice(const std::vector<TensorId>& args, const std::vector<int64_t>& ends,
                            const std::vector<int64_t>& starts, const std::vector<int64_t>& axes,
                            const DebugContext& debugContext) {
    if (version_ < 10) {
        OpAttributes a;
        a.set("ends", ends).set("starts", starts);
        if (!axes.empty())
            a.set("axes", axes);
        return node1("Slice", args, a, debugContext);
    }
    std::vector<TensorId> inputs = args;
    inputs.push_back(int64Constant(starts, "slice_starts"));
    inputs.push_back(int64Constant(ends, "slice_ends"));
    if (!axes.empty())
        inputs.push_back(int64Constant(axes, "slice_axes"));
    return node1("Slice", inputs, {}, debugContext);
}

TensorId AiOnnxOpset::slice(const std::vector<TensorId>& args, const DebugContext& debugContext) {
    if (version_ < 10)
        throw error("Slice takes starts and ends as inputs from opset 10; opset " +
                    std::to_string(version_) + " needs them as arguments");
    return node1("Slice", args, {}, debugContext);
}

std::vector<TensorId> AiOnnxOpset::split(const std::vector<TensorId>& args, unsigned num_outputs,
                                         int64_t axis, const std::vector<int64_t>& split,
                                         const DebugContext& debugContext) {
    OpAttributes a;
    a.set("axis", axis);
    std::vector<TensorId> inputs = args;
    if (!split.empty()) {
        if (version_ < 13)
            a.set("split", split);
        else if (args.size() == 1)
            inputs.push_back(int64Constant(split, "split_sizes"));
    }
    return node("Split", inputs, num_outputs, a, debugContext);
}

TensorId AiOnnxOpset::gather(const std::vector<TensorId>& args, int64_t axis,
                             const DebugContext& debugContext) {
    return node1("Gather", args, OpAttributes().set("axis", axis), debugContext);
}

TensorId AiOnnxOpset::cast(const std::vector<TensorId>& args, const std::string& to,
                           const DebugContext& debugContext) {
    // ONNX's TensorProto.DataType numbers.
    static const std::pair<DataType, int64_t> kOnnx[] = {
        {DataType::FLOAT, 1},   {DataType::UINT8, 2},   {DataType::INT8, 3},
        {DataType::UINT16, 4},  {DataType::INT16, 5},   {DataType::INT32, 6},
        {DataType::INT64, 7},   {DataType::BOOL, 9},    {DataType::FLOAT16, 10},
        {DataType::DOUBLE, 11}, {DataType::UINT32, 12}, {DataType::UINT64, 13}};
    const DataType type = dataTypeFromString(to);
    for (const auto& t : kOnnx)
        if (t.first == type)
            return node1("Cast", args, OpAttributes().set("to", t.second), debugContext);
    throw error("Cast: cannot cast to " + to);
}

TensorId AiOnnxOpset::constant(const ConstVoidData& value, const DebugContext& debugContext) {
    return node1("Constant", {}, OpAttributes().set("value", value), debugContext);
}

TensorId AiOnnxOpset::constantofshape(const std::vector<TensorId>& args, const ConstVoidData& value,
                                      const DebugContext& debugContext) {
    return node1("ConstantOfShape", args, OpAttributes().set("value", value), debugContext);
}

TensorId AiOnnxOpset::constantofshape(const std::vector<TensorId>& args,
                                      const DebugContext& debugContext) {
    return node1("ConstantOfShape", args, {}, debugContext);
}

TensorId AiOnnxOpset::pad(const std::vector<TensorId>& args, const std::vector<int64_t>& pads,
                          const std::string& mode, float value, const DebugContext& debugContext) {
    OpAttributes a;
    a.set("mode", mode);
    if (version_ < 11) {
        a.set("pads", pads).set("value", value);
        return node1("Pad", args, a, debugContext);
    }
    std::vector<TensorId> inputs = args;
    if (args.size() == 1) {
        inputs.push_back(int64Constant(pads, "pad_pads"));
        if (value != 0.0f)
            inputs.push_back(floatConstant(value, "pad_value"));
    }
    return node1("Pad", inputs, a, debugContext);
}

namespace {

const char* reductionName(ReductionType r) {
    switch (r) {
    case ReductionType::Sum:
        return "Sum";
    case ReductionType::Mean:
        return "Mean";
    case ReductionType::NoReduction:
        return "NoReduction";
    default:
        throw error("unknown ReductionType " + std::to_string(static_cast<int>(r)));
    }
}

} // namespace

TensorId AiGraphcoreOpset1::nllloss(const std::vector<TensorId>& args, ReductionType reduction,
                                    OptionalInt ignoreIndex, bool inputIsLogProbability,
                                    const DebugContext& debugContext) {
    OpAttributes a;
    a.set("reduction", reductionName(reduction))
        .set("inputIsLogProbability", static_cast<int64_t>(inputIsLogProbability));
    if (ignoreIndex.has_value())
        a.set("ignoreIndex", ignoreIndex.value());
    return node1("Nll", args, a, debugContext);
}

TensorId AiGraphcoreOpset1::l1loss(const std::vector<TensorId>& args, float lambda,
                                   ReductionType reduction, const DebugContext& debugContext) {
    return node1("L1", args,
                 OpAttributes().set("lambda", lambda).set("reduction", reductionName(reduction)),
                 debugContext);
}

TensorId AiGraphcoreOpset1::identityloss(const std::vector<TensorId>& args, ReductionType reduction,
                                         const DebugContext& debugContext) {
    return node1("IdentityLoss", args, OpAttributes().set("reduction", reductionName(reduction)),
                 debugContext);
}

TensorId AiGraphcoreOpset1::gelu(const std::vector<TensorId>& args,
                                 const DebugContext& debugContext) {
    return node1("Gelu", args, {}, debugContext);
}

std::vector<TensorId> AiGraphcoreOpset1::groupnormalization(const std::vector<TensorId>& args,
                                                            int64_t num_groups, float epsilon,
                                                            const DebugContext& debugContext) {
    return node("GroupNormalization", args, 3,
                OpAttributes().set("num_groups", num_groups).set("epsilon", epsilon), debugContext);
}

TensorId AiGraphcoreOpset1::scale(const std::vector<TensorId>& args, float scale,
                                  const DebugContext& debugContext) {
    return node1("Scale", args, OpAttributes().set("scale", scale), debugContext);
}

TensorId AiGraphcoreOpset1::detach(const std::vector<TensorId>& args,
                                   const DebugContext& debugContext) {
    return node1("Detach", args, {}, debugContext);
}

TensorId AiGraphcoreOpset1::printtensor(const std::vector<TensorId>& args, int64_t print_gradient,
                                        const DebugContext& debugContext,
                                        const std::string& title) {
    return node1("PrintTensor", args,
                 OpAttributes().set("print_gradient", print_gradient).set("title", title),
                 debugContext);
}

TensorId AiGraphcoreOpset1::nop(const std::vector<TensorId>& args,
                                const DebugContext& debugContext) {
    return node1("Nop", args, {}, debugContext);
}

} // namespace popart
