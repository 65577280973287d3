#pragma once
// The op-lowering registry: how each ONNX (or ai.graphcore) op becomes PopLibs calls.
//
// One entry per (domain, op type, opset range). An entry may have:
//   - inferShape: output infos, for ops ONNX's own shape inference does not know (ai.graphcore
//     ops) or gets wrong; standard ops leave it empty.
//   - fold: host evaluation, used by constant folding when every input is constant (shape
//     subgraphs: Shape -> Gather -> Concat -> Reshape). Optional.
//   - forward: the lowering to PopLibs calls on the node's device tensors (required).
//   - grad: the gradient for training: given the forward tensors and the gradients of the
//     outputs, sets the gradients of the inputs that need one. Without it, training a model
//     whose loss depends on the node through a weight raises popart::error naming the op.
//
// Op groups live in separate files (ElementWiseOps.cpp, MatMulOps.cpp, ...), each with one
// registration function `void registerXxxOps(OpLoweringRegistry&)` declared in OpGroups.hpp
// and called from the list in OpGroups.cpp (explicit calls, not static registrars: static
// libraries drop unreferenced registrar objects).
//
// Contexts hide ONNX's protobuf types: attributes through NodeAttributes, values through
// HostTensor and poplar::Tensor. Errors for unsupported attributes or inputs go through
// unsupported(), which names the op type, the node and the opset.

#include "ir/HostTensor.hpp"

#include <functional>
#include <map>
#include <memory>
#include <popart/names.hpp>
#include <popart/tensorinfo.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <string>
#include <vector>

namespace onnx {
class NodeProto;
}

namespace popart {

struct LoweringState; // the session's lowering state (tensors, graph, programs)

/// A node's attributes by name, with ONNX's defaults given by the caller.
class NodeAttributes {
public:
    explicit NodeAttributes(const onnx::NodeProto& node) : node_(&node) {}
    bool has(const std::string& name) const;
    int64_t getInt(const std::string& name, int64_t dflt) const;
    float getFloat(const std::string& name, float dflt) const;
    std::string getString(const std::string& name, const std::string& dflt) const;
    std::vector<int64_t> getInts(const std::string& name,
                                 const std::vector<int64_t>& dflt = {}) const;
    std::vector<float> getFloats(const std::string& name,
                                 const std::vector<float>& dflt = {}) const;
    /// A TENSOR attribute (Constant's value, ConstantOfShape's value) as host values.
    HostTensor getTensor(const std::string& name) const;
    /// Every attribute name (for checks of unknown attributes and for the report).
    std::vector<std::string> names() const;
    /// The attributes as JSON text (for the report's debug information).
    std::string json() const;

private:
    const onnx::NodeProto* node_;
};

/// What every context knows about its node.
class NodeView {
public:
    NodeView(const onnx::NodeProto& node, int opset);
    const std::string& opType() const;
    const std::string& domain() const;
    const std::string& nodeName() const { return name_; }
    int opset() const { return opset_; }
    const NodeAttributes& attrs() const { return attrs_; }
    std::size_t numInputs() const;
    std::size_t numOutputs() const;
    /// Whether input/output i is given (ONNX marks a skipped optional one with "").
    bool hasInput(std::size_t i) const;
    bool hasOutput(std::size_t i) const;
    const TensorId& inputId(std::size_t i) const;
    const TensorId& outputId(std::size_t i) const;
    /// popart::error "<op type> (node '<name>', opset <n>): <what> is not supported".
    [[noreturn]] void unsupported(const std::string& what) const;
    /// popart::error naming the node, for invalid models.
    [[noreturn]] void invalid(const std::string& what) const;
    const onnx::NodeProto& proto() const { return *node_; }

private:
    const onnx::NodeProto* node_;
    int opset_;
    std::string name_; // the node's name, else "<op type>_<first output>"
    NodeAttributes attrs_;
};

/// Shape inference and folding of one node: infos (and host values) of its inputs.
class ShapeContext : public NodeView {
public:
    ShapeContext(const onnx::NodeProto& node, int opset, std::vector<const TensorInfo*> inputs,
                 std::vector<const HostTensor*> constants);
    const TensorInfo& inputInfo(std::size_t i) const;
    /// Whether input i's value is known on the host (initializer, Constant, folded).
    bool isConstant(std::size_t i) const;
    const HostTensor& constant(std::size_t i) const;
    void setOutputInfo(std::size_t i, const TensorInfo& info);
    const std::vector<TensorInfo>& outputInfos() const { return outputs_; }

private:
    std::vector<const TensorInfo*> inputs_;
    std::vector<const HostTensor*> constants_;
    std::vector<TensorInfo> outputs_;
};

/// The forward lowering of one node.
class LoweringContext : public NodeView {
public:
    LoweringContext(const onnx::NodeProto& node, int opset, LoweringState& state,
                    poplar::DebugNameAndId debug);
    poplar::Graph& graph();
    poplar::program::Sequence& prog();
    /// {the node's operation, name}: pass to PopLibs calls so their work is under the node.
    poplar::DebugContext di(const std::string& name = "") const;
    bool isTraining() const;

    const TensorInfo& inputInfo(std::size_t i) const;
    /// Input i on the device (a constant input becomes a graph constant; INT64 is INT).
    poplar::Tensor input(std::size_t i);
    bool isConstant(std::size_t i) const;
    const HostTensor& constant(std::size_t i) const;
    /// A constant input's values as integers (axes, shapes, pads given as inputs).
    std::vector<int64_t> constantInts(std::size_t i) const;

    const TensorInfo& outputInfo(std::size_t i) const;
    /// Sets output i; its shape must be the inferred one (element type is cast if it differs).
    void setOutput(std::size_t i, poplar::Tensor t);
    /// Keeps a forward tensor for the gradient under `key`.
    void save(const std::string& key, poplar::Tensor t);

    /// The device type of an ONNX type (INT64 -> INT, FLOAT16 -> HALF; DOUBLE is refused).
    poplar::Type deviceType(DataType type) const;
    /// A constant of `type` broadcastable to anything (shape {}).
    poplar::Tensor scalar(const poplar::Type& type, double value);
    /// PopLibs options of this node's matMul / convolution: the session's, with the node's
    /// available memory proportion (Builder::setAvailableMemoryProportion).
    poplar::OptionFlags matmulOptions() const;
    poplar::OptionFlags convolutionOptions() const;
    /// The session's random seed, advanced once per batch (LoweringState::randomSeed).
    poplar::Tensor randomSeed();
    /// A seed modifier of this node (from its name), so nodes draw differently.
    std::uint32_t seedModifier() const;

protected:
    /// `t` where this node's graph can use it: with manual virtual graphs, a tensor held by
    /// another IPU's tiles is first copied onto this node's IPU (PopART's IpuCopy).
    poplar::Tensor onThisIpu(const poplar::Tensor& t) const;

    LoweringState& state_;
    poplar::DebugNameAndId debug_;
};

/// The gradient of one node: the forward tensors, the gradients of its outputs, and where
/// the gradients of its inputs go. Ops are differentiated in reverse node order.
class GradContext : public LoweringContext {
public:
    GradContext(const onnx::NodeProto& node, int opset, LoweringState& state,
                poplar::DebugNameAndId debug);
    /// The forward output i.
    poplar::Tensor output(std::size_t i);
    poplar::Tensor saved(const std::string& key) const;
    bool hasOutputGrad(std::size_t i) const;
    /// The gradient of output i (zeros if none flowed back).
    poplar::Tensor outputGrad(std::size_t i);
    /// Whether input i leads back to a weight (only those gradients are needed).
    bool needsInputGrad(std::size_t i) const;
    /// Adds `g` to input i's gradient; a broadcast operand's gradient is summed over the
    /// broadcast dimensions first.
    void addInputGrad(std::size_t i, poplar::Tensor g);
};

using ShapeFn = std::function<void(ShapeContext&)>;
using FoldFn = std::function<std::vector<HostTensor>(ShapeContext&)>;
using ForwardFn = std::function<void(LoweringContext&)>;
using GradFn = std::function<void(GradContext&)>;

/// How one op type, at opsets minOpset..maxOpset of its domain, is lowered.
struct OpLowering {
    std::string domain; // "" or "ai.onnx" for ONNX, "ai.graphcore" for Graphcore's ops
    std::string opType;
    int minOpset = 1;
    int maxOpset = 1000;
    ShapeFn inferShape;
    FoldFn fold;
    ForwardFn forward;
    GradFn grad;
};

/// Every op lowering, by domain and op type. Filled once by registerAllOpGroups().
class OpLoweringRegistry {
public:
    /// The registry with every op group registered.
    static const OpLoweringRegistry& instance();
    void add(OpLowering lowering);
    /// The entry for `opType` of `domain` at `opset`, nullptr when none. "ai.onnx" and "" are
    /// one domain.
    const OpLowering* find(const std::string& domain, const std::string& opType, int opset) const;
    /// Whether any opset of `opType` is registered (for the error message).
    bool knows(const std::string& domain, const std::string& opType) const;
    /// All entries (for listings and tests).
    std::vector<const OpLowering*> all() const;

private:
    std::multimap<std::string, OpLowering> entries_; // key: domain + "::" + opType
};

} // namespace popart
