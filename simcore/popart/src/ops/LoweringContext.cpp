#include "ops/LoweringState.hpp"
#include "ops/OpLowering.hpp"

#include <popart/error.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>

namespace popart {

poplar::Type deviceTypeOf(DataType type) {
    switch (type) {
    case DataType::FLOAT:
        return poplar::FLOAT;
    case DataType::FLOAT16:
        return poplar::HALF;
    case DataType::INT32:
    case DataType::INT64:
        return poplar::INT;
    case DataType::UINT32:
    case DataType::UINT64:
        // popops' arithmetic is FLOAT, HALF, INT and BOOL: unsigned values (which must fit
        // INT32) are INT on the device too.
        return poplar::INT;
    case DataType::BOOL:
        return poplar::BOOL;
    // popops has no arithmetic on 8- and 16-bit integers: they are INT on the device (streams
    // convert), as INT64 is narrowed to INT32.
    case DataType::INT8:
    case DataType::UINT8:
    case DataType::INT16:
    case DataType::UINT16:
        return poplar::INT;
    default:
        throw error(getDataTypeString(type) + " tensors are not supported on the IPU");
    }
}

DataType deviceDataType(DataType type) {
    switch (type) {
    case DataType::INT64:
    case DataType::INT8:
    case DataType::UINT8:
    case DataType::INT16:
    case DataType::UINT16:
        return DataType::INT32;
    case DataType::UINT32:
    case DataType::UINT64:
        return DataType::INT32;
    default:
        deviceTypeOf(type);
        return type;
    }
}

void mapLinearly(poplar::Graph& graph, const poplar::Tensor& t) {
    poputil::mapTensorLinearly(graph, t);
}

namespace {

std::vector<std::size_t> dims(const Shape& s) {
    std::vector<std::size_t> d;
    for (auto x : s)
        d.push_back(std::size_t(x));
    return d;
}

} // namespace

LoweringContext::LoweringContext(const onnx::NodeProto& node, int opset, LoweringState& state,
                                 poplar::DebugNameAndId debug)
    : NodeView(node, opset), state_(state), debug_(std::move(debug)) {}

poplar::Graph& LoweringContext::graph() {
    return *state_.graph;
}
poplar::program::Sequence& LoweringContext::prog() {
    return *state_.prog;
}

poplar::DebugContext LoweringContext::di(const std::string& name) const {
    return poplar::DebugContext(debug_, name);
}

bool LoweringContext::isTraining() const {
    return state_.training;
}

namespace {

poplar::OptionFlags withNodeOptions(const std::map<std::string, std::string>& session,
                                    const NodeView& v) {
    poplar::OptionFlags flags;
    for (const auto& o : session)
        flags.set(o.first, o.second);
    // Builder::setAvailableMemoryProportion's annotation wins over the session's.
    if (v.attrs().has("__available_memory_proportion"))
        flags.set("availableMemoryProportion",
                  std::to_string(v.attrs().getFloat("__available_memory_proportion", 0.6f)));
    return flags;
}

} // namespace

poplar::OptionFlags LoweringContext::matmulOptions() const {
    return withNodeOptions(state_.matmulOptions, *this);
}

poplar::OptionFlags LoweringContext::convolutionOptions() const {
    return withNodeOptions(state_.convolutionOptions, *this);
}

const char* const kSeedHighHandle = "randomSeed/high";
const char* const kSeedLowHandle = "randomSeed/low";

poplar::Tensor LoweringContext::randomSeed() {
    if (!state_.randomSeed.valid()) {
        // Made on the whole device and advanced in the batch's program before this node draws:
        // the first random node comes first in every batch. popops has no arithmetic on
        // UNSIGNED_INT, so the counting half is an INT cast into the seed.
        poplar::Graph& g = *state_.mainGraph;
        state_.seedHigh = g.addVariable(poplar::UNSIGNED_INT, {1}, {debug_, "seedHigh"});
        state_.seedLow = g.addVariable(poplar::INT, {1}, {debug_, "seedLow"});
        g.setTileMapping(state_.seedHigh, 0);
        g.setTileMapping(state_.seedLow, 0);
        g.createHostWrite(kSeedHighHandle, state_.seedHigh);
        g.createHostWrite(kSeedLowHandle, state_.seedLow);
        popops::mapInPlace(g, popops::expr::_1 + popops::expr::Const(1), {state_.seedLow}, prog(),
                           di("advanceSeed"));
        poplar::Tensor counter = state_.seedLow;
        if (g.getReplicationFactor() > 1) {
            // Each replica draws its own masks: its index moves the counter 2^16 batches on.
            poplar::Tensor replica = g.addReplicationIndexConstant(di("replica"));
            g.setTileMapping(replica, 0);
            counter =
                popops::map(g, popops::expr::_1 + popops::expr::_2 * popops::expr::Const(65536),
                            {counter, popops::cast(g, replica, poplar::INT, prog(), di("replica"))},
                            prog(), di("replicaSeed"));
        }
        poplar::Tensor low = popops::cast(g, counter, poplar::UNSIGNED_INT, prog(), di("seedLow"));
        state_.randomSeed = poplar::concat(state_.seedHigh, low);
    }
    return state_.randomSeed;
}

std::uint32_t LoweringContext::seedModifier() const {
    // FNV-1a of the node's name (NodeView names unnamed nodes by type and output): stable
    // across sessions.
    const std::string& key = nodeName();
    std::uint32_t h = 2166136261u;
    for (unsigned char ch : key)
        h = (h ^ ch) * 16777619u;
    return h;
}

const TensorInfo& LoweringContext::inputInfo(std::size_t i) const {
    if (!hasInput(i))
        invalid("input " + std::to_string(i) + " is missing");
    auto it = state_.analysis->infos.find(inputId(i));
    if (it == state_.analysis->infos.end())
        invalid("input '" + inputId(i) + "' has no known shape");
    return it->second;
}

bool LoweringContext::isConstant(std::size_t i) const {
    return hasInput(i) && state_.analysis->constants.count(inputId(i)) &&
           !state_.analysis->weights.count(inputId(i));
}

const HostTensor& LoweringContext::constant(std::size_t i) const {
    if (!hasInput(i) || !state_.analysis->constants.count(inputId(i)))
        unsupported("input " + std::to_string(i) + " given at run time (it must be constant)");
    return state_.analysis->constants.at(inputId(i));
}

std::vector<int64_t> LoweringContext::constantInts(std::size_t i) const {
    return constant(i).ints();
}

poplar::Tensor LoweringContext::onThisIpu(const poplar::Tensor& t) const {
    poplar::Graph& graph = *state_.graph;
    if (state_.graph == state_.mainGraph)
        return t;
    std::size_t here = 0;
    for (const auto& intervals : graph.getTileMapping(t, false))
        for (const auto& interval : intervals)
            here += interval.size();
    if (here == t.numElements())
        return t;
    poplar::Tensor copy =
        graph.addVariable(t.elementType(), t.shape(), poplar::DebugContext(debug_, "ipuCopy"));
    mapLinearly(graph, copy);
    state_.prog->add(
        poplar::program::Copy(t, copy, false, poplar::DebugContext(debug_, "ipuCopy")));
    return copy;
}

poplar::Tensor LoweringContext::input(std::size_t i) {
    const TensorId& id = inputId(i);
    auto t = state_.tensors.find(id);
    if (t != state_.tensors.end())
        return onThisIpu(t->second);
    auto c = state_.constants.find(id);
    if (c != state_.constants.end())
        return onThisIpu(c->second);
    if (!isConstant(i))
        invalid("input '" + id + "' has not been computed");
    const HostTensor& h = constant(i);
    const poplar::Type type = deviceTypeOf(h.info.dataType());
    poplar::Tensor k = graph().addConstant(type, dims(h.info.shape()), h.values.data(),
                                           poplar::DebugContext(debug_, id));
    mapLinearly(graph(), k);
    state_.constants[id] = k;
    return k;
}

const TensorInfo& LoweringContext::outputInfo(std::size_t i) const {
    if (!hasOutput(i))
        invalid("output " + std::to_string(i) + " is missing");
    auto it = state_.analysis->infos.find(outputId(i));
    if (it == state_.analysis->infos.end())
        invalid("output '" + outputId(i) + "' has no known shape");
    return it->second;
}

void LoweringContext::setOutput(std::size_t i, poplar::Tensor t) {
    if (!hasOutput(i))
        return; // an optional output the model does not use
    const TensorInfo& info = outputInfo(i);
    if (t.shape() != dims(info.shape())) {
        if (t.numElements() != std::size_t(info.nelms()))
            throw internal_error(opType() + " (node '" + nodeName() + "'): output " +
                                 std::to_string(i) + " has " + std::to_string(t.numElements()) +
                                 " elements, the model says " + info.str());
        t = t.reshape(dims(info.shape()));
    }
    const poplar::Type type = deviceTypeOf(info.dataType());
    if (t.elementType() != type)
        t = popops::cast(graph(), t, type, prog(), di("cast"));
    state_.tensors[outputId(i)] = t;
}

void LoweringContext::save(const std::string& key, poplar::Tensor t) {
    state_.saved[nodeName() + "/" + key] = t;
}

poplar::Type LoweringContext::deviceType(DataType type) const {
    try {
        return deviceTypeOf(type);
    } catch (const error&) {
        unsupported(getDataTypeString(type) + " data (the IPU has no such type)");
    }
}

poplar::Tensor LoweringContext::scalar(const poplar::Type& type, double value) {
    poplar::Tensor k = graph().addConstant(type, {}, value, di("scalar"));
    graph().setTileMapping(k, 0);
    return k;
}

GradContext::GradContext(const onnx::NodeProto& node, int opset, LoweringState& state,
                         poplar::DebugNameAndId debug)
    : LoweringContext(node, opset, state, std::move(debug)) {}

poplar::Tensor GradContext::output(std::size_t i) {
    auto it = state_.tensors.find(outputId(i));
    if (it == state_.tensors.end())
        invalid("output '" + outputId(i) + "' was not computed");
    return onThisIpu(it->second);
}

poplar::Tensor GradContext::saved(const std::string& key) const {
    auto it = state_.saved.find(nodeName() + "/" + key);
    if (it == state_.saved.end())
        throw internal_error(opType() + " (node '" + nodeName() + "'): no saved tensor '" + key +
                             "'");
    return onThisIpu(it->second);
}

bool GradContext::hasOutputGrad(std::size_t i) const {
    return hasOutput(i) && state_.grads.count(outputId(i));
}

poplar::Tensor GradContext::outputGrad(std::size_t i) {
    auto it = state_.grads.find(outputId(i));
    if (it != state_.grads.end())
        return onThisIpu(it->second);
    poplar::Tensor out = output(i);
    poplar::Tensor z = graph().addVariable(out.elementType(), out.shape(), di("zeroGrad"));
    mapLinearly(graph(), z);
    popops::zero(graph(), z, prog(), di("zeroGrad"));
    return z;
}

bool GradContext::needsInputGrad(std::size_t i) const {
    return hasInput(i) && state_.needsGrad.count(inputId(i));
}

void GradContext::addInputGrad(std::size_t i, poplar::Tensor g) {
    if (!needsInputGrad(i))
        return;
    const std::vector<std::size_t> shape = dims(inputInfo(i).shape());
    if (g.shape() != shape) {
        // Sum over the dimensions broadcasting added or stretched (numpy rules).
        const std::size_t extra = g.rank() - shape.size();
        std::vector<std::size_t> reduceDims;
        for (std::size_t d = 0; d < g.rank(); ++d)
            if (d < extra || (shape[d - extra] == 1 && g.dim(unsigned(d)) != 1))
                reduceDims.push_back(d);
        if (!reduceDims.empty())
            g = popops::reduce(graph(), g, reduceDims, popops::Operation::ADD, prog(),
                               di("gradReduce"));
        g = g.reshape(shape);
    }
    const TensorId& id = inputId(i);
    auto it = state_.grads.find(id);
    if (it == state_.grads.end())
        state_.grads[id] = g;
    else
        it->second = popops::add(graph(), onThisIpu(it->second), g, prog(), di("gradSum"));
}

} // namespace popart
