#include "ops/OpLowering.hpp"

#include "onnx/OnnxConvert.hpp"
#include "ops/OpGroups.hpp"

#include <onnx/onnx_pb.h>
#include <popart/error.hpp>
#include <sstream>

namespace popart {

namespace {

const onnx::AttributeProto* attribute(const onnx::NodeProto& n, const std::string& name) {
    for (const auto& a : n.attribute())
        if (a.name() == name)
            return &a;
    return nullptr;
}

std::string domainKey(const std::string& domain) {
    return domain.empty() || domain == "ai.onnx" ? std::string("ai.onnx") : domain;
}

const std::string kEmpty;

std::string jsonString(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (static_cast<unsigned char>(c) >= 0x20)
            out += c;
    }
    return out + "\"";
}

} // namespace

bool NodeAttributes::has(const std::string& name) const {
    return attribute(*node_, name) != nullptr;
}

int64_t NodeAttributes::getInt(const std::string& name, int64_t dflt) const {
    const auto* a = attribute(*node_, name);
    return a ? a->i() : dflt;
}

float NodeAttributes::getFloat(const std::string& name, float dflt) const {
    const auto* a = attribute(*node_, name);
    return a ? a->f() : dflt;
}

std::string NodeAttributes::getString(const std::string& name, const std::string& dflt) const {
    const auto* a = attribute(*node_, name);
    return a ? a->s() : dflt;
}

std::vector<int64_t> NodeAttributes::getInts(const std::string& name,
                                             const std::vector<int64_t>& dflt) const {
    const auto* a = attribute(*node_, name);
    return a ? std::vector<int64_t>(a->ints().begin(), a->ints().end()) : dflt;
}

std::vector<float> NodeAttributes::getFloats(const std::string& name,
                                             const std::vector<float>& dflt) const {
    const auto* a = attribute(*node_, name);
    return a ? std::vector<float>(a->floats().begin(), a->floats().end()) : dflt;
}

HostTensor NodeAttributes::getTensor(const std::string& name) const {
    const auto* a = attribute(*node_, name);
    if (!a || !a->has_t())
        throw error("node '" + node_->name() + "' has no tensor attribute '" + name + "'");
    return fromTensorProto(a->t());
}

std::vector<std::string> NodeAttributes::names() const {
    std::vector<std::string> out;
    for (const auto& a : node_->attribute())
        out.push_back(a.name());
    return out;
}

std::string NodeAttributes::json() const {
    std::ostringstream out;
    out << '{';
    bool first = true;
    for (const auto& a : node_->attribute()) {
        out << (first ? "" : ",") << jsonString(a.name()) << ':';
        first = false;
        switch (a.type()) {
        case onnx::AttributeProto::INT:
            out << a.i();
            break;
        case onnx::AttributeProto::FLOAT:
            out << a.f();
            break;
        case onnx::AttributeProto::STRING:
            out << jsonString(a.s());
            break;
        case onnx::AttributeProto::INTS: {
            out << '[';
            for (int i = 0; i < a.ints_size(); ++i)
                out << (i ? "," : "") << a.ints(i);
            out << ']';
            break;
        }
        case onnx::AttributeProto::FLOATS: {
            out << '[';
            for (int i = 0; i < a.floats_size(); ++i)
                out << (i ? "," : "") << a.floats(i);
            out << ']';
            break;
        }
        case onnx::AttributeProto::TENSOR: {
            TensorInfo info(fromOnnxType(a.t().data_type()),
                            Shape(a.t().dims().begin(), a.t().dims().end()));
            out << jsonString("tensor " + info.str());
            break;
        }
        default:
            out << jsonString("(attribute type " + std::to_string(a.type()) + ")");
            break;
        }
    }
    out << '}';
    return out.str();
}

NodeView::NodeView(const onnx::NodeProto& node, int opset)
    : node_(&node), opset_(opset), attrs_(node) {
    name_ = node.name();
    if (name_.empty())
        name_ = node.op_type() + (node.output_size() ? "_" + node.output(0) : std::string());
}

const std::string& NodeView::opType() const {
    return node_->op_type();
}
const std::string& NodeView::domain() const {
    return node_->domain();
}
std::size_t NodeView::numInputs() const {
    return std::size_t(node_->input_size());
}
std::size_t NodeView::numOutputs() const {
    return std::size_t(node_->output_size());
}

bool NodeView::hasInput(std::size_t i) const {
    return i < numInputs() && !node_->input(int(i)).empty();
}

bool NodeView::hasOutput(std::size_t i) const {
    return i < numOutputs() && !node_->output(int(i)).empty();
}

const TensorId& NodeView::inputId(std::size_t i) const {
    return i < numInputs() ? node_->input(int(i)) : kEmpty;
}

const TensorId& NodeView::outputId(std::size_t i) const {
    return i < numOutputs() ? node_->output(int(i)) : kEmpty;
}

void NodeView::unsupported(const std::string& what) const {
    throw error(opType() + " (node '" + name_ + "', opset " + std::to_string(opset_) +
                "): " + what + " is not supported");
}

void NodeView::invalid(const std::string& what) const {
    throw error(opType() + " (node '" + name_ + "', opset " + std::to_string(opset_) +
                "): " + what);
}

ShapeContext::ShapeContext(const onnx::NodeProto& node, int opset,
                           std::vector<const TensorInfo*> inputs,
                           std::vector<const HostTensor*> constants)
    : NodeView(node, opset), inputs_(std::move(inputs)), constants_(std::move(constants)),
      outputs_(numOutputs()) {}

const TensorInfo& ShapeContext::inputInfo(std::size_t i) const {
    if (i >= inputs_.size() || !inputs_[i])
        invalid("input " + std::to_string(i) + " has no known shape");
    return *inputs_[i];
}

bool ShapeContext::isConstant(std::size_t i) const {
    return i < constants_.size() && constants_[i] != nullptr;
}

const HostTensor& ShapeContext::constant(std::size_t i) const {
    if (!isConstant(i))
        unsupported("input " + std::to_string(i) + " given at run time (it must be constant)");
    return *constants_[i];
}

void ShapeContext::setOutputInfo(std::size_t i, const TensorInfo& info) {
    if (i >= outputs_.size())
        invalid("has no output " + std::to_string(i));
    outputs_[i] = info;
}

void OpLoweringRegistry::add(OpLowering lowering) {
    if (!lowering.forward)
        throw internal_error("op lowering of " + lowering.opType + " has no forward function");
    const std::string key = domainKey(lowering.domain) + "::" + lowering.opType;
    entries_.emplace(key, std::move(lowering));
}

const OpLowering* OpLoweringRegistry::find(const std::string& domain, const std::string& opType,
                                           int opset) const {
    auto range = entries_.equal_range(domainKey(domain) + "::" + opType);
    for (auto it = range.first; it != range.second; ++it)
        if (opset >= it->second.minOpset && opset <= it->second.maxOpset)
            return &it->second;
    return nullptr;
}

bool OpLoweringRegistry::knows(const std::string& domain, const std::string& opType) const {
    return entries_.count(domainKey(domain) + "::" + opType) != 0;
}

std::vector<const OpLowering*> OpLoweringRegistry::all() const {
    std::vector<const OpLowering*> out;
    for (const auto& e : entries_)
        out.push_back(&e.second);
    return out;
}

const OpLoweringRegistry& OpLoweringRegistry::instance() {
    static const OpLoweringRegistry registry = [] {
        OpLoweringRegistry r;
        registerAllOpGroups(r);
        return r;
    }();
    return registry;
}

} // namespace popart
