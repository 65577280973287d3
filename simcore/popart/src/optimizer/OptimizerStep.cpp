// The optimizer's update of every weight, on the device, after the backward pass. Const
// hyperparameters are graph constants; the others are scalar variables written from the host
// (program 3) so updateOptimizerFromHost changes them without recompiling.
#include "ops/LoweringState.hpp"
#include "session/SessionCore.hpp"

#include <popart/error.hpp>
#include <poplar/DebugInfo.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Zero.hpp>

namespace popart {

namespace {

namespace pe = popops::expr;

class Hyper {
public:
    Hyper(SessionCore& core, poplar::Graph& graph, const poplar::DebugNameAndId& di)
        : core_(core), graph_(graph), di_(di) {}

    // The scalar tensor of hyperparameter `name` of `weight`, of the weight's type.
    poplar::Tensor get(const std::string& name, const TensorId& weight, const poplar::Type& type) {
        const OptimizerValue v = name == "lossScaling" ? core_.optimizer->lossScaling()
                                                       : core_.optimizer->get(name, weight);
        if (v.isConst()) {
            poplar::Tensor k = graph_.addConstant(type, {}, double(v.val()), {di_, name});
            graph_.setTileMapping(k, 0);
            return k;
        }
        const std::string handle = "optimizer/" + weight + "/" + name;
        poplar::Tensor t = graph_.addVariable(poplar::FLOAT, {}, {di_, name});
        graph_.setTileMapping(t, 0);
        graph_.createHostWrite(handle, t);
        core_.hyperParameters.push_back({weight, name, handle, v.val()});
        return type == poplar::FLOAT ? t : t; // FLOAT weights only: checked by the caller
    }

private:
    SessionCore& core_;
    poplar::Graph& graph_;
    poplar::DebugNameAndId di_;
};

poplar::Tensor stateLike(SessionCore& core, const poplar::Tensor& w, const std::string& name,
                         const poplar::DebugNameAndId& di) {
    poplar::Tensor s = core.graph->addVariable(w.elementType(), w.shape(), {di, name});
    core.graph->setTileMapping(s, core.graph->getTileMapping(w));
    core.stateToZero.push_back(s);
    return s;
}

} // namespace

void lowerOptimizerStep(SessionCore& core, poplar::program::Sequence& prog) {
    poplar::Graph& graph = *core.graph;
    poplar::DebugInfo opDi(poplar::DebugContext("optimizer/" + core.optimizer->type_s()), "PopART");
    opDi.setValue("optimizer", poplar::ProfileValue(core.optimizer->type_s()));
    const poplar::DebugNameAndId di(opDi);
    Hyper hyper(core, graph, di);
    poplar::Tensor step; // Adam's step count, shared by all weights
    for (const auto& id : core.weightIds) {
        auto g = core.state.grads.find(id);
        if (g == core.state.grads.end())
            continue; // the loss does not depend on this weight
        poplar::Tensor w = core.state.tensors.at(id);
        if (w.elementType() != poplar::FLOAT)
            throw error("TrainingSession: weight '" + id + "' is " + w.elementType().toString() +
                        "; only FLOAT weights are trained");
        poplar::Tensor grad = g->second;
        const poplar::DebugNameAndId wdi(opDi, id);
        const poplar::Type t = poplar::FLOAT;
        poplar::Tensor ls = hyper.get("lossScaling", id, t);
        poplar::Tensor lr = hyper.get("learningRate", id, t);
        poplar::Tensor wd = hyper.get("weightDecay", id, t);
        if (core.optimizer->type() == OptimizerType::SGD) {
            const auto& sgd = static_cast<const SGD&>(*core.optimizer);
            if (!sgd.requiresAccl(id)) {
                // w -= lr * (g / ls + wd * w)
                popops::mapInPlace(graph, pe::_1 - pe::_3 * (pe::_2 / pe::_4 + pe::_5 * pe::_1),
                                   {w, grad, lr, ls, wd}, prog, {wdi, "sgd"});
                continue;
            }
            poplar::Tensor mm = hyper.get("momentum", id, t);
            poplar::Tensor dp = hyper.get("dampening", id, t);
            poplar::Tensor v = stateLike(core, w, "velocity", wdi);
            // v = mm * v + (1 - dp) * (g / ls + wd * w); w -= lr * v
            popops::mapInPlace(graph,
                               pe::_4 * pe::_1 +
                                   (pe::Const(1.0f) - pe::_5) * (pe::_2 / pe::_6 + pe::_7 * pe::_3),
                               {v, grad, w, mm, dp, ls, wd}, prog, {wdi, "velocity"});
            popops::mapInPlace(graph, pe::_1 - pe::_3 * pe::_2, {w, v, lr}, prog, {wdi, "sgd"});
            continue;
        }
        const auto& adam = static_cast<const Adam&>(*core.optimizer);
        poplar::Tensor b1 = hyper.get("beta1", id, t);
        poplar::Tensor b2 = hyper.get("beta2", id, t);
        poplar::Tensor eps = hyper.get("eps", id, t);
        if (!step.valid()) {
            step = graph.addVariable(poplar::FLOAT, {}, {di, "step"});
            graph.setTileMapping(step, 0);
            core.stateToZero.push_back(step);
            popops::mapInPlace(graph, pe::_1 + pe::Const(1.0f), {step}, prog, {di, "step"});
        }
        poplar::Tensor m = stateLike(core, w, "accl1", wdi);
        poplar::Tensor v = stateLike(core, w, "accl2", wdi);
        // gg = g / ls (+ wd * w with L2 regularisation)
        const bool l2 = adam.getWeightDecayMode() == WeightDecayMode::L2Regularization;
        poplar::Tensor gg =
            l2 ? popops::map(graph, pe::_1 / pe::_2 + pe::_3 * pe::_4, {grad, ls, wd, w}, prog,
                             {wdi, "grad"})
               : popops::map(graph, pe::_1 / pe::_2, {grad, ls}, prog, {wdi, "grad"});
        popops::mapInPlace(graph, pe::_3 * pe::_1 + (pe::Const(1.0f) - pe::_3) * pe::_2,
                           {m, gg, b1}, prog, {wdi, "accl1"});
        popops::mapInPlace(graph, pe::_3 * pe::_1 + (pe::Const(1.0f) - pe::_3) * pe::_2 * pe::_2,
                           {v, gg, b2}, prog, {wdi, "accl2"});
        const bool bias = adam.getMode() == AdamMode::Adam;
        // The bias-corrected moments m / (1 - b1^t), v / (1 - b2^t).
        poplar::Tensor c1 = bias ? popops::map(graph, pe::Const(1.0f) - pe::Pow(pe::_1, pe::_2),
                                               {b1, step}, prog, {wdi, "bias1"})
                                 : graph.addConstant(poplar::FLOAT, {}, 1.0, {wdi, "bias1"});
        poplar::Tensor c2 = bias ? popops::map(graph, pe::Const(1.0f) - pe::Pow(pe::_1, pe::_2),
                                               {b2, step}, prog, {wdi, "bias2"})
                                 : graph.addConstant(poplar::FLOAT, {}, 1.0, {wdi, "bias2"});
        if (!bias) {
            graph.setTileMapping(c1, 0);
            graph.setTileMapping(c2, 0);
        }
        poplar::Tensor decay = l2 ? graph.addConstant(poplar::FLOAT, {}, 0.0, {wdi, "decay"}) : wd;
        if (l2)
            graph.setTileMapping(decay, 0);
        // w -= lr * ((m / c1) / (sqrt(v / c2) + eps) + decay * w)
        popops::mapInPlace(graph,
                           pe::_1 -
                               pe::_4 * ((pe::_2 / pe::_6) / (pe::Sqrt(pe::_3 / pe::_7) + pe::_5) +
                                         pe::_8 * pe::_1),
                           {w, m, v, lr, eps, c1, c2, decay}, prog, {wdi, "adam"});
    }
}

} // namespace popart
