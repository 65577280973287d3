// The forward pass: every ONNX node that is not folded on the host is lowered by its registry
// entry, under an operation of the report (layer "PopART") that records the node.
#include "onnx/OnnxConvert.hpp"
#include "ops/OpLowering.hpp"
#include "session/SessionCore.hpp"

#include <popart/error.hpp>

namespace popart {

namespace {

poplar::ProfileValue tensorList(const ModelAnalysis& a,
                                const google::protobuf::RepeatedPtrField<std::string>& ids) {
    poplar::ProfileValue::Vector out;
    for (const auto& id : ids) {
        if (id.empty())
            continue;
        auto it = a.infos.find(id);
        poplar::ProfileValue::Map m;
        m["name"] = poplar::ProfileValue(id);
        m["info"] = poplar::ProfileValue(it == a.infos.end() ? std::string("?") : it->second.str());
        out.push_back(poplar::ProfileValue(m));
    }
    return poplar::ProfileValue(out);
}

// The node's attributes as a map of profile values (tensors by their info).
poplar::ProfileValue attributeMap(const onnx::NodeProto& node) {
    poplar::ProfileValue::Map m;
    for (const auto& a : node.attribute()) {
        switch (a.type()) {
        case onnx::AttributeProto::INT:
            m[a.name()] = poplar::ProfileValue(int64_t(a.i()));
            break;
        case onnx::AttributeProto::FLOAT:
            m[a.name()] = poplar::ProfileValue(double(a.f()));
            break;
        case onnx::AttributeProto::STRING:
            m[a.name()] = poplar::ProfileValue(a.s());
            break;
        case onnx::AttributeProto::INTS: {
            poplar::ProfileValue::Vector v;
            for (auto i : a.ints())
                v.push_back(poplar::ProfileValue(int64_t(i)));
            m[a.name()] = poplar::ProfileValue(v);
            break;
        }
        case onnx::AttributeProto::FLOATS: {
            poplar::ProfileValue::Vector v;
            for (auto f : a.floats())
                v.push_back(poplar::ProfileValue(double(f)));
            m[a.name()] = poplar::ProfileValue(v);
            break;
        }
        case onnx::AttributeProto::TENSOR:
            m[a.name()] = poplar::ProfileValue(
                "tensor " + TensorInfo(fromOnnxType(a.t().data_type()),
                                       Shape(a.t().dims().begin(), a.t().dims().end()))
                                .str());
            break;
        default:
            m[a.name()] = poplar::ProfileValue("(attribute type " + std::to_string(a.type()) + ")");
        }
    }
    return poplar::ProfileValue(m);
}

bool isFolded(const ModelAnalysis& a, const onnx::NodeProto& node) {
    for (const auto& o : node.output())
        if (!o.empty() && !a.folded.count(o))
            return false;
    return node.output_size() > 0;
}

} // namespace

std::unique_ptr<poplar::DebugInfo> nodeOperation(SessionCore& core, const NodeView& v,
                                                 const std::string& suffix) {
    const ModelAnalysis& a = core.analysis;
    // A node named by a module path ("/layer1/conv/Conv", as torch.onnx.export names nodes, or
    // Builder::nameScope's "scope/Op") is an operation inside one operation per enclosing
    // module, so the report nests the model as its author wrote it.
    std::vector<std::string> parts;
    {
        const std::string& name = v.nodeName();
        std::size_t start = 0;
        while (start <= name.size()) {
            const std::size_t slash = std::min(name.find('/', start), name.size());
            if (slash > start)
                parts.push_back(name.substr(start, slash - start));
            start = slash + 1;
        }
    }
    poplar::DebugContext context(v.nodeName() + suffix);
    if (parts.size() > 1) {
        std::string scope;
        const poplar::DebugInfo* parent = nullptr;
        for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
            scope += "/" + parts[i];
            auto& slot = core.moduleScopes[scope];
            if (!slot) {
                poplar::DebugContext dc =
                    parent ? poplar::DebugContext(poplar::DebugNameAndId(*parent), parts[i])
                           : poplar::DebugContext(parts[i]);
                slot.reset(new poplar::DebugInfo(dc, "PopART"));
                slot->setValue("moduleScope", poplar::ProfileValue(scope));
            }
            parent = slot.get();
        }
        context = poplar::DebugContext(poplar::DebugNameAndId(*parent), parts.back() + suffix);
    }
    std::unique_ptr<poplar::DebugInfo> di(new poplar::DebugInfo(context, "PopART"));
    di->setValue("onnxOpType", poplar::ProfileValue(v.opType()));
    di->setValue("domain",
                 poplar::ProfileValue(v.domain().empty() ? std::string("ai.onnx") : v.domain()));
    di->setValue("opset", poplar::ProfileValue(v.opset()));
    di->setValue("nodeName", poplar::ProfileValue(v.nodeName()));
    di->setValue("attributes", attributeMap(v.proto()));
    di->setValue("inputs", tensorList(a, v.proto().input()));
    di->setValue("outputs", tensorList(a, v.proto().output()));
    if (!suffix.empty())
        di->setValue("pass", poplar::ProfileValue("backward"));
    return di;
}

poplar::Graph& graphForNode(SessionCore& core, const NodeView& view) {
    LoweringState& st = core.state;
    if (st.ipuGraphs.empty() || !view.attrs().has("__ipu_number"))
        return *st.mainGraph;
    const int64_t ipu = view.attrs().getInt("__ipu_number", 0);
    if (ipu < 0 || std::size_t(ipu) >= st.ipuGraphs.size())
        view.invalid("virtual graph " + std::to_string(ipu) + " does not exist (the device has " +
                     std::to_string(st.ipuGraphs.size()) + " IPUs)");
    return st.ipuGraphs[std::size_t(ipu)];
}

void lowerForward(SessionCore& core, poplar::program::Sequence& prog) {
    LoweringState& st = core.state;
    st.prog = &prog;
    st.graph = core.graph.get();
    const auto& registry = OpLoweringRegistry::instance();
    for (const auto& node : core.model.graph().node()) {
        bool used = false;
        for (const auto& o : node.output())
            used = used || core.needed.count(o);
        if (!used || isFolded(core.analysis, node))
            continue;
        const int opset = nodeOpset(core.analysis, node.domain());
        NodeView view(node, opset);
        const OpLowering* op = registry.find(node.domain(), node.op_type(), opset);
        if (!op) {
            if (registry.knows(node.domain(), node.op_type()))
                view.unsupported("this opset of the op");
            view.unsupported("the op");
        }
        st.graph = &graphForNode(core, view);
        auto di = nodeOperation(core, view, "");
        LoweringContext ctx(node, opset, st, poplar::DebugNameAndId(*di));
        op->forward(ctx);
        for (std::size_t i = 0; i < view.numOutputs(); ++i)
            if (view.hasOutput(i) && !st.tensors.count(view.outputId(i)))
                throw internal_error(view.opType() + " (node '" + view.nodeName() +
                                     "'): the lowering did not set output '" + view.outputId(i) +
                                     "'");
        core.operations.push_back(std::move(di));
    }
}

} // namespace popart
