// The backward pass: gradients flow from the loss to the weights through the registry's grad
// functions, nodes in reverse order; only tensors that depend on a weight get gradients.
#include "ops/OpLowering.hpp"
#include "session/SessionCore.hpp"

#include <popart/error.hpp>
#include <poputil/TileMapping.hpp>

namespace popart {

std::unique_ptr<poplar::DebugInfo> nodeOperation(SessionCore& core, const NodeView& v,
                                                 const std::string& suffix);

namespace {

// Ops whose outputs carry no gradient to their inputs.
bool stopsGradient(const onnx::NodeProto& node) {
    const std::string& t = node.op_type();
    return t == "Detach" || t == "Shape" || t == "ArgMax" || t == "ArgMin" || t == "Equal" ||
           t == "Less" || t == "Greater" || t == "LessOrEqual" || t == "GreaterOrEqual" ||
           t == "Not" || t == "And" || t == "Or" || t == "Xor" || t == "Floor" || t == "Ceil" ||
           t == "Round" || t == "Sign" || t == "ConstantOfShape";
}

bool isFloat(const ModelAnalysis& a, const TensorId& id) {
    auto it = a.infos.find(id);
    return it != a.infos.end() &&
           (it->second.dataType() == DataType::FLOAT || it->second.dataType() == DataType::FLOAT16);
}

} // namespace

void lowerBackward(SessionCore& core, poplar::program::Sequence& prog) {
    LoweringState& st = core.state;
    st.prog = &prog;
    st.graph = core.graph.get();
    const auto& nodes = core.model.graph().node();
    for (const auto& w : core.weightIds)
        st.needsGrad.insert(w);
    for (const auto& node : nodes) {
        if (stopsGradient(node))
            continue;
        bool depends = false;
        for (const auto& in : node.input())
            depends = depends || st.needsGrad.count(in);
        if (depends)
            for (const auto& out : node.output())
                if (!out.empty() && isFloat(core.analysis, out))
                    st.needsGrad.insert(out);
    }
    if (!st.needsGrad.count(core.loss))
        throw error("TrainingSession: the loss '" + core.loss + "' does not depend on any weight");
    const TensorInfo& lossInfo = core.analysis.infos.at(core.loss);
    if (lossInfo.nelms() != 1)
        throw error("TrainingSession: the loss '" + core.loss + "' must be a scalar, not " +
                    lossInfo.str() + " (give the loss op a Sum or Mean reduction)");
    const poplar::Tensor lossT = st.tensors.at(core.loss);
    poplar::Tensor seed =
        core.graph->addConstant(lossT.elementType(), lossT.shape(),
                                double(core.optimizer->getLossScalingVal()), {"lossGradSeed"});
    core.graph->setTileMapping(seed, 0);
    st.grads[core.loss] = seed;

    const auto& registry = OpLoweringRegistry::instance();
    for (int ni = nodes.size() - 1; ni >= 0; --ni) {
        const auto& node = nodes.Get(ni);
        bool hasGrad = false, needs = false;
        for (const auto& out : node.output())
            hasGrad = hasGrad || (!out.empty() && st.grads.count(out));
        for (const auto& in : node.input())
            needs = needs || st.needsGrad.count(in);
        if (!hasGrad || !needs || stopsGradient(node))
            continue;
        const int opset = nodeOpset(core.analysis, node.domain());
        const OpLowering* op = registry.find(node.domain(), node.op_type(), opset);
        NodeView view(node, opset);
        if (!op || !op->grad)
            view.unsupported("training through the op (it has no gradient)");
        st.graph = &graphForNode(core, view);
        auto di = nodeOperation(core, view, "/grad");
        GradContext ctx(node, opset, st, poplar::DebugNameAndId(*di));
        op->grad(ctx);
        core.operations.push_back(std::move(di));
    }
}

} // namespace popart
