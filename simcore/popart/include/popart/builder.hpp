#pragma once
// Builder: builds an ONNX model op by op (PopART's Builder), with the ONNX op sets
// (AiOnnxOpset6..17, or aiOnnxOpset(n)) and the Graphcore op set (losses, gelu, ...).

#include <cstdint>
#include <memory>
#include <popart/attributes.hpp>
#include <popart/debugcontext.hpp>
#include <popart/names.hpp>
#include <popart/tensorinfo.hpp>
#include <popart/voiddata.hpp>
#include <set>
#include <string>
#include <vector>

namespace popart {

struct BuilderImpl;

/// An optional integer (ignore_index of the losses): empty by default, set from an int.
class OptionalInt {
public:
    OptionalInt() : set_(false), v_(0) {}
    OptionalInt(int64_t v) : set_(true), v_(v) {}
    bool has_value() const { return set_; }
    int64_t value() const { return v_; }

private:
    bool set_;
    int64_t v_;
};

/// An axis argument whose default is ONNX's default for the op set (the attribute is left out).
static const int64_t OnnxDefaultAxis = INT64_MIN;

/// The ops of one domain at one opset version. Each method adds a node named after its debug
/// context (under the builder's name scopes) and returns its output tensor(s).
class DomainOpSet {
public:
    virtual ~DomainOpSet() = default;
    int getOpsetVersion() const { return version_; }
    const std::string& getDomain() const { return domain_; }

protected:
    DomainOpSet(BuilderImpl* impl, const std::string& domain, int version)
        : impl_(impl), domain_(domain), version_(version) {}
    std::vector<TensorId> node(const std::string& opType, const std::vector<TensorId>& args,
                               unsigned numOutputs, const OpAttributes& attributes,
                               const DebugContext& debugContext);
    TensorId node1(const std::string& opType, const std::vector<TensorId>& args,
                   const OpAttributes& attributes, const DebugContext& debugContext) {
        return node(opType, args, 1, attributes, debugContext)[0];
    }
    /// An INT64 constant node (an attribute that became an input at this opset).
    TensorId int64Constant(const std::vector<int64_t>& values, const std::string& name);
    TensorId floatConstant(float value, const std::string& name);

    BuilderImpl* impl_;
    std::string domain_;
    int version_;
};

/// The ONNX operators ("ai.onnx") at one opset version. Attributes that became inputs at later
/// opsets (Slice's starts/ends, Clip's min/max, Pad's pads, Split's split, Squeeze/Unsqueeze's
/// axes, ReduceSum's axes) may be given as arguments at any version: at versions where they
/// are inputs the builder adds them as constant inputs.
class AiOnnxOpset : public DomainOpSet {
public:
    AiOnnxOpset(BuilderImpl* impl, int version) : DomainOpSet(impl, "", version) {}

#define POPART_UNARY_OP(name)                                                                      \
    TensorId name(const std::vector<TensorId>& args, const DebugContext& debugContext = {});
    POPART_UNARY_OP(abs)
    POPART_UNARY_OP(ceil)
    POPART_UNARY_OP(cos)
    POPART_UNARY_OP(erf)
    POPART_UNARY_OP(exp)
    POPART_UNARY_OP(floor)
    POPART_UNARY_OP(identity)
    POPART_UNARY_OP(log)
    POPART_UNARY_OP(logical_not)
    POPART_UNARY_OP(neg)
    POPART_UNARY_OP(reciprocal)
    POPART_UNARY_OP(relu)
    POPART_UNARY_OP(round)
    POPART_UNARY_OP(sigmoid)
    POPART_UNARY_OP(sign)
    POPART_UNARY_OP(sin)
    POPART_UNARY_OP(softplus)
    POPART_UNARY_OP(softsign)
    POPART_UNARY_OP(sqrt)
    POPART_UNARY_OP(tanh)
    POPART_UNARY_OP(shape)
    POPART_UNARY_OP(globalaveragepool)
    POPART_UNARY_OP(globalmaxpool)
    // Binary and variadic element-wise ops (numpy broadcasting).
    POPART_UNARY_OP(add)
    POPART_UNARY_OP(sub)
    POPART_UNARY_OP(mul)
    POPART_UNARY_OP(div)
    POPART_UNARY_OP(pow)
    POPART_UNARY_OP(max)
    POPART_UNARY_OP(min)
    POPART_UNARY_OP(sum)
    POPART_UNARY_OP(mean)
    POPART_UNARY_OP(equal)
    POPART_UNARY_OP(less)
    POPART_UNARY_OP(greater)
    POPART_UNARY_OP(lessorequal)
    POPART_UNARY_OP(greaterorequal)
    POPART_UNARY_OP(logical_and)
    POPART_UNARY_OP(logical_or)
    POPART_UNARY_OP(logical_xor)
    POPART_UNARY_OP(matmul)
    POPART_UNARY_OP(where)
    POPART_UNARY_OP(expand)
    POPART_UNARY_OP(reshape)
    POPART_UNARY_OP(tile)
#undef POPART_UNARY_OP

    TensorId gemm(const std::vector<TensorId>& args, float alpha = 1.0f, float beta = 1.0f,
                  int64_t transA = 0, int64_t transB = 0, const DebugContext& debugContext = {});
    TensorId leakyrelu(const std::vector<TensorId>& args, float alpha = 0.01f,
                       const DebugContext& debugContext = {});
    TensorId elu(const std::vector<TensorId>& args, float alpha = 1.0f,
                 const DebugContext& debugContext = {});
    TensorId selu(const std::vector<TensorId>& args, float alpha = 1.67326319217681884765625f,
                  float gamma = 1.05070102214813232421875f, const DebugContext& debugContext = {});
    TensorId hardsigmoid(const std::vector<TensorId>& args, float alpha = 0.2f, float beta = 0.5f,
                         const DebugContext& debugContext = {});
    /// Clip: `max`/`min` are attributes before opset 11 and constant inputs from 11 (when args
    /// holds only the input).
    TensorId clip(const std::vector<TensorId>& args, float max = 3.402823466e+38f,
                  float min = -3.402823466e+38f, const DebugContext& debugContext = {});
    TensorId softmax(const std::vector<TensorId>& args, int64_t axis = OnnxDefaultAxis,
                     const DebugContext& debugContext = {});
    TensorId logsoftmax(const std::vector<TensorId>& args, int64_t axis = OnnxDefaultAxis,
                        const DebugContext& debugContext = {});

#define POPART_REDUCE_OP(name)                                                                     \
    TensorId name(const std::vector<TensorId>& args, const std::vector<int64_t>& axes = {},        \
                  int64_t keepdims = 1, const DebugContext& debugContext = {});
    POPART_REDUCE_OP(reducesum)
    POPART_REDUCE_OP(reducemean)
    POPART_REDUCE_OP(reducemax)
    POPART_REDUCE_OP(reducemin)
    POPART_REDUCE_OP(reduceprod)
    POPART_REDUCE_OP(reducel1)
    POPART_REDUCE_OP(reducel2)
    POPART_REDUCE_OP(reducelogsum)
    POPART_REDUCE_OP(reducelogsumexp)
    POPART_REDUCE_OP(reducesumsquare)
#undef POPART_REDUCE_OP
    TensorId argmax(const std::vector<TensorId>& args, int64_t axis = 0, int64_t keepdims = 1,
                    const DebugContext& debugContext = {});
    TensorId argmin(const std::vector<TensorId>& args, int64_t axis = 0, int64_t keepdims = 1,
                    const DebugContext& debugContext = {});

    /// Outputs: Y (and with num_outputs 5, in training, the running mean/var and saved stats).
    std::vector<TensorId> batchnormalization(const std::vector<TensorId>& args,
                                             unsigned num_outputs = 1, float epsilon = 1e-05f,
                                             float momentum = 0.9f,
                                             const DebugContext& debugContext = {});
    /// LayerNormalization (opset 17): args X, Scale[, B]; normalises over axes [axis, rank).
    TensorId layernormalization(const std::vector<TensorId>& args, int64_t axis = -1,
                                float epsilon = 1e-05f, const DebugContext& debugContext = {});
    /// Outputs: the result (and the mask with num_outputs 2).
    std::vector<TensorId> dropout(const std::vector<TensorId>& args, unsigned num_outputs = 1,
                                  float ratio = 0.5f, const DebugContext& debugContext = {});
    std::vector<TensorId> softmaxcrossentropyloss(const std::vector<TensorId>& args,
                                                  unsigned num_outputs = 1,
                                                  const std::string& reduction = "mean",
                                                  OptionalInt ignore_index = OptionalInt(),
                                                  const DebugContext& debugContext = {});
    TensorId negativeloglikelihoodloss(const std::vector<TensorId>& args,
                                       const std::string& reduction = "mean",
                                       OptionalInt ignore_index = OptionalInt(),
                                       const DebugContext& debugContext = {});

    TensorId conv(const std::vector<TensorId>& args, const std::vector<int64_t>& dilations = {},
                  int64_t group = 1, const std::vector<int64_t>& kernel_shape = {},
                  const std::vector<int64_t>& pads = {}, const std::vector<int64_t>& strides = {},
                  const DebugContext& debugContext = {});
    std::vector<TensorId> maxpool(const std::vector<TensorId>& args, unsigned num_outputs,
                                  const std::vector<int64_t>& kernel_shape, int64_t ceil_mode = 0,
                                  const std::vector<int64_t>& dilations = {},
                                  const std::vector<int64_t>& pads = {}, int64_t storage_order = 0,
                                  const std::vector<int64_t>& strides = {},
                                  const DebugContext& debugContext = {});
    TensorId averagepool(const std::vector<TensorId>& args,
                         const std::vector<int64_t>& kernel_shape, int64_t ceil_mode = 0,
                         int64_t count_include_pad = 0, const std::vector<int64_t>& pads = {},
                         const std::vector<int64_t>& strides = {},
                         const DebugContext& debugContext = {});

    // Views and data movement.
    TensorId flatten(const std::vector<TensorId>& args, int64_t axis = 1,
                     const DebugContext& debugContext = {});
    TensorId transpose(const std::vector<TensorId>& args, const std::vector<int64_t>& perm = {},
                       const DebugContext& debugContext = {});
    TensorId squeeze(const std::vector<TensorId>& args, const std::vector<int64_t>& axes = {},
                     const DebugContext& debugContext = {});
    TensorId unsqueeze(const std::vector<TensorId>& args, const std::vector<int64_t>& axes,
                       const DebugContext& debugContext = {});
    TensorId concat(const std::vector<TensorId>& args, int64_t axis,
                    const DebugContext& debugContext = {});
    /// Slice with starts/ends/axes as attributes (before opset 10) or constant inputs.
    TensorId slice(const std::vector<TensorId>& args, const std::vector<int64_t>& ends,
                   const std::vector<int64_t>& starts, const std::vector<int64_t>& axes = {},
                   const DebugContext& debugContext = {});
    /// Slice with starts, ends[, axes, steps] given as inputs (opset 10 and later).
    TensorId slice(const std::vector<TensorId>& args, const DebugContext& debugContext = {});
    std::vector<TensorId> split(const std::vector<TensorId>& args, unsigned num_outputs,
                                int64_t axis = 0, const std::vector<int64_t>& split = {},
                                const DebugContext& debugContext = {});
    TensorId gather(const std::vector<TensorId>& args, int64_t axis = 0,
                    const DebugContext& debugContext = {});
    /// Cast to a type named as PopART names types ("FLOAT", "INT32", ...).
    TensorId cast(const std::vector<TensorId>& args, const std::string& to,
                  const DebugContext& debugContext = {});
    TensorId constant(const ConstVoidData& value, const DebugContext& debugContext = {});
    TensorId constantofshape(const std::vector<TensorId>& args, const ConstVoidData& value,
                             const DebugContext& debugContext = {});
    TensorId constantofshape(const std::vector<TensorId>& args,
                             const DebugContext& debugContext = {});
    /// Pad: `pads` and `value` are attributes before opset 11 and constant inputs from 11.
    TensorId pad(const std::vector<TensorId>& args, const std::vector<int64_t>& pads = {},
                 const std::string& mode = "constant", float value = 0.0f,
                 const DebugContext& debugContext = {});
};

#define POPART_ONNX_OPSET_CLASS(N)                                                                 \
    /** The ONNX op set at version N. */                                                           \
    class AiOnnxOpset##N : public AiOnnxOpset {                                                    \
    public:                                                                                        \
        explicit AiOnnxOpset##N(BuilderImpl* impl) : AiOnnxOpset(impl, N) {}                       \
    };
POPART_ONNX_OPSET_CLASS(6)
POPART_ONNX_OPSET_CLASS(7)
POPART_ONNX_OPSET_CLASS(8)
POPART_ONNX_OPSET_CLASS(9)
POPART_ONNX_OPSET_CLASS(10)
POPART_ONNX_OPSET_CLASS(11)
POPART_ONNX_OPSET_CLASS(12)
POPART_ONNX_OPSET_CLASS(13)
POPART_ONNX_OPSET_CLASS(14)
POPART_ONNX_OPSET_CLASS(15)
POPART_ONNX_OPSET_CLASS(16)
POPART_ONNX_OPSET_CLASS(17)
#undef POPART_ONNX_OPSET_CLASS

/// Graphcore's op set ("ai.graphcore", version 1): the losses PopART programs use, gelu, scale,
/// detach.
class AiGraphcoreOpset1 : public DomainOpSet {
public:
    explicit AiGraphcoreOpset1(BuilderImpl* impl) : DomainOpSet(impl, "ai.graphcore", 1) {}

    /// Negative log likelihood of args[0] (probabilities, or log-probabilities with
    /// inputIsLogProbability) at the labels args[1] (INT32), over the last axis.
    TensorId nllloss(const std::vector<TensorId>& args,
                     ReductionType reduction = ReductionType::Mean,
                     OptionalInt ignoreIndex = OptionalInt(), bool inputIsLogProbability = false,
                     const DebugContext& debugContext = {});
    /// lambda * |args[0]|, reduced.
    TensorId l1loss(const std::vector<TensorId>& args, float lambda,
                    ReductionType reduction = ReductionType::Mean,
                    const DebugContext& debugContext = {});
    /// args[0] itself as the loss, reduced.
    TensorId identityloss(const std::vector<TensorId>& args,
                          ReductionType reduction = ReductionType::Mean,
                          const DebugContext& debugContext = {});
    TensorId gelu(const std::vector<TensorId>& args, const DebugContext& debugContext = {});
    /// args[0] {N, C, ...} normalised over each of `num_groups` groups of channels (and the
    /// other dimensions), then scaled by args[1] and shifted by args[2] (both {C}). Returns
    /// the result and each group's mean and 1/sqrt(var + epsilon), {N * num_groups}.
    std::vector<TensorId> groupnormalization(const std::vector<TensorId>& args, int64_t num_groups,
                                             float epsilon = 1e-05f,
                                             const DebugContext& debugContext = {});
    TensorId scale(const std::vector<TensorId>& args, float scale,
                   const DebugContext& debugContext = {});
    /// args[0] forward, no gradient backward.
    TensorId detach(const std::vector<TensorId>& args, const DebugContext& debugContext = {});
    /// args[0], printed on the host each time it is computed (under `title`, else its name),
    /// and its gradient too with print_gradient (PopTorch's ipu_print_tensor).
    TensorId printtensor(const std::vector<TensorId>& args, int64_t print_gradient = 1,
                         const DebugContext& debugContext = {}, const std::string& title = {});
    /// args[0] unchanged, as an op of its own.
    TensorId nop(const std::vector<TensorId>& args, const DebugContext& debugContext = {});
};

/// Builds an ONNX ModelProto: inputs, initialised inputs (weights), nodes and outputs, with
/// PopART's node annotations (virtual graph, pipeline stage, recomputation) as attributes.
class Builder {
public:
    static std::unique_ptr<Builder> create();
    /// Starts from an existing model (a file name or a serialized ModelProto).
    static std::unique_ptr<Builder> createFromOnnxModel(const std::string& modelProtoOrFilename);
    ~Builder();
    Builder(const Builder&) = delete;
    Builder& operator=(const Builder&) = delete;

    TensorId addInputTensor(const TensorInfo& tensorInfo, const DebugContext& debugContext = {});
    TensorId addInputTensor(const std::string& dataType, const Shape& shape,
                            const DebugContext& debugContext = {});
    /// A weight with its initial value (copied): an ONNX initializer.
    TensorId addInitializedInputTensor(const ConstVoidData& initData,
                                       const DebugContext& debugContext = {});
    void addOutputTensor(const TensorId& id);

    AiOnnxOpset6 aiOnnxOpset6() { return AiOnnxOpset6(impl_.get()); }
    AiOnnxOpset7 aiOnnxOpset7() { return AiOnnxOpset7(impl_.get()); }
    AiOnnxOpset8 aiOnnxOpset8() { return AiOnnxOpset8(impl_.get()); }
    AiOnnxOpset9 aiOnnxOpset9() { return AiOnnxOpset9(impl_.get()); }
    AiOnnxOpset10 aiOnnxOpset10() { return AiOnnxOpset10(impl_.get()); }
    AiOnnxOpset11 aiOnnxOpset11() { return AiOnnxOpset11(impl_.get()); }
    AiOnnxOpset12 aiOnnxOpset12() { return AiOnnxOpset12(impl_.get()); }
    AiOnnxOpset13 aiOnnxOpset13() { return AiOnnxOpset13(impl_.get()); }
    AiOnnxOpset14 aiOnnxOpset14() { return AiOnnxOpset14(impl_.get()); }
    AiOnnxOpset15 aiOnnxOpset15() { return AiOnnxOpset15(impl_.get()); }
    AiOnnxOpset16 aiOnnxOpset16() { return AiOnnxOpset16(impl_.get()); }
    AiOnnxOpset17 aiOnnxOpset17() { return AiOnnxOpset17(impl_.get()); }
    /// The ONNX op set at `version` (6..17); popart::error for other versions.
    AiOnnxOpset aiOnnxOpset(int version);
    AiGraphcoreOpset1 aiGraphcoreOpset1() { return AiGraphcoreOpset1(impl_.get()); }

    /// A node of any domain and type (attributes as given).
    std::vector<TensorId> customOp(const std::string& domain, const std::string& opType,
                                   int opsetVersion, const std::vector<TensorId>& inputs,
                                   unsigned numOutputs, const OpAttributes& attributes = {},
                                   const DebugContext& debugContext = {});

    /// Places the node producing `nodeOutputName` on IPU `value` (VirtualGraphMode::Manual).
    void virtualGraph(const TensorId& nodeOutputName, int64_t value = 0);
    void virtualGraph(const std::set<TensorId>& nodeOutputNames, int64_t value = 0);
    int64_t getVirtualGraph(const TensorId& nodeOutputName);
    /// Puts the node producing `nodeOutputName` in pipeline stage `value`.
    void pipelineStage(const TensorId& nodeOutputName, int64_t value);
    void pipelineStage(const std::set<TensorId>& nodeOutputNames, int64_t value);
    int64_t getPipelineStage(const TensorId& nodeOutputName);
    void recomputeOutputInBackwardPass(const TensorId& nodeOutputName,
                                       RecomputeType value = RecomputeType::Recompute);
    void recomputeOutputInBackwardPass(const std::set<TensorId>& nodeOutputNames,
                                       RecomputeType value = RecomputeType::Recompute);
    bool getRecomputeOutputInBackwardPass(const TensorId& nodeOutputName);
    void setAvailableMemoryProportion(const TensorId& nodeOutputName, float proportion);

    /// Scoped attributes: every node added while set carries the attribute (as the Python
    /// `with builder.virtualGraph(n)` / `pipelineStage(n)` blocks set "__ipu_number" /
    /// "__pipeline_stage").
    void setAttribute(const std::string& attribute, int64_t value);
    void clearAttribute(const std::string& attribute);
    bool hasAttribute(const std::string& attribute) const;
    int64_t getInt64Attribute(const std::string& attribute) const;

    void addNodeAttribute(const std::string& name, int64_t value,
                          const std::set<TensorId>& nodeOutputNames);
    void addNodeAttribute(const std::string& name, const std::vector<int64_t>& value,
                          const std::set<TensorId>& nodeOutputNames);
    void addNodeAttribute(const std::string& name, float value,
                          const std::set<TensorId>& nodeOutputNames);
    void addNodeAttribute(const std::string& name, const std::string& value,
                          const std::set<TensorId>& nodeOutputNames);
    bool nodeHasAttribute(const std::string& name, const std::set<TensorId>& nodeOutputNames);
    int64_t getInt64NodeAttribute(const std::string& name,
                                  const std::set<TensorId>& nodeOutputNames);

    /// Name scopes prefix node and tensor names ("encoder/fc1/...").
    void pushNameScope(const std::string& name);
    void popNameScope();
    std::string getNameScope(const std::string& name = "") const;
    void setGraphName(const std::string& name);

    /// The model as a serialized ModelProto (or its text form with humanReadable).
    std::string getModelProto(bool humanReadable = false) const;
    void saveModelProto(const std::string& fileName);

    std::vector<TensorId> getInputTensorIds() const;
    std::vector<TensorId> getOutputTensorIds() const;
    std::vector<TensorId> getValueTensorIds() const;
    std::vector<TensorId> getTrainableTensorIds() const;
    bool isInitializer(const TensorId& id) const;
    /// The shape and type of any tensor of the model (ONNX shape inference).
    Shape getTensorShape(const TensorId& id);
    DataType getTensorDataType(const TensorId& id);
    std::string getTensorDtypeString(const TensorId& id);

    BuilderImpl& impl() { return *impl_; }

private:
    Builder();
    std::unique_ptr<BuilderImpl> impl_;
};

} // namespace popart
