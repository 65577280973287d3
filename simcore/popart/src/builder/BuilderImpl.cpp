#include "builder/BuilderImpl.hpp"

#include "onnx/ModelAnalysis.hpp"
#include "onnx/OnnxConvert.hpp"

#include <popart/error.hpp>

namespace popart {

BuilderImpl::BuilderImpl() {
    model.set_ir_version(onnx::IR_VERSION);
    model.set_producer_name("TileScope PopART");
    model.mutable_graph()->set_name("BuilderGraph");
}

TensorId BuilderImpl::uniqueId(const std::string& base) {
    std::string scoped;
    for (const auto& s : nameScopes)
        scoped += s + "/";
    scoped += base;
    int& n = usedNames[scoped];
    TensorId id = n == 0 ? scoped : scoped + "/" + std::to_string(n);
    ++n;
    while (knowsTensor(id))
        id = scoped + "/" + std::to_string(n++);
    return id;
}

void BuilderImpl::useOpset(const std::string& domain, int version) {
    for (auto& o : *model.mutable_opset_import()) {
        if (o.domain() == domain) {
            if (o.version() != version)
                throw error("Builder: the model already uses opset " + std::to_string(o.version()) +
                            " of domain '" + (domain.empty() ? "ai.onnx" : domain) +
                            "'; cannot add an op of opset " + std::to_string(version));
            return;
        }
    }
    auto* o = model.add_opset_import();
    o->set_domain(domain);
    o->set_version(version);
}

void setNodeAttribute(onnx::NodeProto& node, const std::string& name, const OpAttribute& value) {
    onnx::AttributeProto* a = nullptr;
    for (auto& existing : *node.mutable_attribute())
        if (existing.name() == name)
            a = &existing;
    if (!a)
        a = node.add_attribute();
    a->Clear();
    a->set_name(name);
    switch (value.kind) {
    case OpAttribute::Kind::Int:
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(value.i);
        break;
    case OpAttribute::Kind::Float:
        a->set_type(onnx::AttributeProto::FLOAT);
        a->set_f(value.f);
        break;
    case OpAttribute::Kind::String:
        a->set_type(onnx::AttributeProto::STRING);
        a->set_s(value.s);
        break;
    case OpAttribute::Kind::Ints:
        a->set_type(onnx::AttributeProto::INTS);
        for (auto v : value.ints)
            a->add_ints(v);
        break;
    case OpAttribute::Kind::Floats:
        a->set_type(onnx::AttributeProto::FLOATS);
        for (auto v : value.floats)
            a->add_floats(v);
        break;
    case OpAttribute::Kind::Strings:
        a->set_type(onnx::AttributeProto::STRINGS);
        for (const auto& v : value.strings)
            a->add_strings(v);
        break;
    case OpAttribute::Kind::Tensor:
        a->set_type(onnx::AttributeProto::TENSOR);
        toTensorProto(ConstVoidData(value.tensorBytes.data(), value.tensorInfo), *a->mutable_t());
        break;
    }
}

std::vector<TensorId> BuilderImpl::addNode(const std::string& domain, int version,
                                           const std::string& opType,
                                           const std::vector<TensorId>& args, unsigned numOutputs,
                                           const OpAttributes& attributes,
                                           const DebugContext& debugContext) {
    for (const auto& a : args)
        if (!a.empty() && !knowsTensor(a))
            throw error("Builder: " + opType + " input '" + a + "' is not a tensor of the model");
    useOpset(domain, version);
    const std::string base = debugContext.empty() ? opType : debugContext.getPathName();
    onnx::NodeProto* node = model.mutable_graph()->add_node();
    node->set_op_type(opType);
    if (!domain.empty())
        node->set_domain(domain);
    std::vector<TensorId> outs;
    for (unsigned i = 0; i < numOutputs; ++i) {
        outs.push_back(uniqueId(base + ":" + std::to_string(i)));
        node->add_output(outs.back());
    }
    node->set_name(outs.empty() ? uniqueId(base) : outs[0].substr(0, outs[0].rfind(':')));
    for (const auto& a : args)
        node->add_input(a);
    for (const auto& a : attributes.values())
        setNodeAttribute(*node, a.first, a.second);
    for (const auto& s : scopedAttributes) {
        OpAttribute v;
        v.kind = OpAttribute::Kind::Int;
        v.i = s.second;
        setNodeAttribute(*node, s.first, v);
    }
    return outs;
}

onnx::NodeProto& BuilderImpl::producer(const TensorId& id) {
    for (auto& n : *model.mutable_graph()->mutable_node())
        for (const auto& o : n.output())
            if (o == id)
                return n;
    throw error("Builder: no node produces tensor '" + id + "'");
}

bool BuilderImpl::knowsTensor(const TensorId& id) const {
    const auto& g = model.graph();
    for (const auto& i : g.input())
        if (i.name() == id)
            return true;
    for (const auto& i : g.initializer())
        if (i.name() == id)
            return true;
    for (const auto& n : g.node())
        for (const auto& o : n.output())
            if (o == id)
                return true;
    return false;
}

std::map<TensorId, TensorInfo> BuilderImpl::infos() const {
    return analyseModel(model, InputShapeInfo(), AnalysisMode::ShapesOnly).infos;
}

} // namespace popart
