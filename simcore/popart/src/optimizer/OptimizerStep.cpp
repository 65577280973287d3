// The optimizer's update of every weight, on the device, after the backward pass. Const
// hyperparameters are graph constants; the others are scalar variables written from the host
// (program 3) so updateOptimizerFromHost changes them without recompiling. The formulas are
// PopART's (its SGD, Adam and Adaptive class documentation), quoted on each optimizer's class
// in popart/optimizer.hpp. A FLOAT16 weight's optimizer state has the optimizer's
// stateTypeOfHalfWeights (SGD: the weight's type; Adam and Adaptive: their accl types, FLOAT
// unless asked): in HALF the update runs in HALF, its host-written hyperparameters HALF
// variables (popops' expressions take one element type); in FLOAT it runs on a FLOAT copy of
// the weight, rounded back to HALF.
#include "ops/LoweringState.hpp"
#include "session/SessionCore.hpp"

#include <map>
#include <popart/error.hpp>
#include <poplar/DebugInfo.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>

namespace popart {

namespace {

namespace pe = popops::expr;

class Hyper {
public:
    Hyper(SessionCore& core, poplar::Graph& graph, poplar::program::Sequence& prog,
          const poplar::DebugNameAndId& di)
        : core_(core), graph_(graph), prog_(prog), di_(di) {}

    // The element type of the weight being updated (FLOAT or HALF): what get() and constant()
    // return.
    void setType(const poplar::Type& type) { type_ = type; }

    // The scalar tensor of hyperparameter `name` of `weight`, in the weight's type.
    poplar::Tensor get(const std::string& name, const TensorId& weight) {
        const OptimizerValue v = name == "lossScaling" ? core_.optimizer->lossScaling()
                                                       : core_.optimizer->get(name, weight);
        if (v.isConst())
            return constant(v.val(), name);
        const std::string handle = "optimizer/" + weight + "/" + name;
        poplar::Tensor t = graph_.addVariable(type_, {}, {di_, name});
        graph_.setTileMapping(t, 0);
        graph_.createHostWrite(handle, t);
        core_.hyperParameters.push_back({weight, name, handle, v.val(), type_ == poplar::HALF});
        return t;
    }

    // `t` (a FLOAT scalar computed on the device, shared by all weights and named `name`) in
    // the weight's type: cast once, for the first weight that needs it.
    poplar::Tensor inType(const poplar::Tensor& t, const std::string& name) {
        if (t.elementType() == type_)
            return t;
        auto it = casts_.find(name);
        if (it == casts_.end())
            it = casts_.emplace(name, popops::cast(graph_, t, type_, prog_, {di_, name + "/cast"}))
                     .first;
        return it->second;
    }

    // Whether hyperparameter `name` of `weight` is the constant `value`.
    bool isConst(const std::string& name, const TensorId& weight, float value) const {
        const OptimizerValue v = core_.optimizer->get(name, weight);
        return v.isConst() && v.val() == value;
    }

    poplar::Tensor constant(float value, const std::string& name) {
        poplar::Tensor k = graph_.addConstant(type_, {}, double(value), {di_, name});
        graph_.setTileMapping(k, 0);
        return k;
    }

private:
    SessionCore& core_;
    poplar::Graph& graph_;
    poplar::program::Sequence& prog_;
    poplar::DebugNameAndId di_;
    poplar::Type type_ = poplar::FLOAT;
    std::map<std::string, poplar::Tensor> casts_;
};

poplar::Tensor stateLike(SessionCore& core, const poplar::Tensor& w, const std::string& name,
                         const poplar::DebugNameAndId& di) {
    poplar::Tensor s = core.graph->addVariable(w.elementType(), w.shape(), {di, name});
    core.graph->setTileMapping(s, core.graph->getTileMapping(w));
    core.stateToZero.push_back(s);
    return s;
}

/// What every optimizer starts from: the weight, its gradient with the loss scaling (and the
/// mean over accumulated micro-batches) removed, and its debug name.
struct WeightUpdate {
    TensorId id;
    poplar::Tensor w, g;
    poplar::DebugNameAndId di;
};

// g := g + wd * w (PopART's WeightDecayMode::L2Regularization).
poplar::Tensor withL2(poplar::Graph& graph, const WeightUpdate& u, const poplar::Tensor& wd,
                      poplar::program::Sequence& prog) {
    return popops::map(graph, pe::_1 + pe::_2 * pe::_3, {u.g, wd, u.w}, prog, {u.di, "l2"});
}

void sgdStep(SessionCore& core, Hyper& hyper, const WeightUpdate& u,
             poplar::program::Sequence& prog) {
    poplar::Graph& graph = *core.graph;
    const auto& sgd = static_cast<const SGD&>(*core.optimizer);
    poplar::Tensor lr = hyper.get("learningRate", u.id);
    poplar::Tensor wd = hyper.get("weightDecay", u.id);
    if (!sgd.requiresAccl(u.id)) {
        // w -= lr * (g + wd * w)
        popops::mapInPlace(graph, pe::_1 - pe::_3 * (pe::_2 + pe::_4 * pe::_1), {u.w, u.g, lr, wd},
                           prog, {u.di, "sgd"});
        return;
    }
    poplar::Tensor mm = hyper.get("momentum", u.id);
    poplar::Tensor dp = hyper.get("dampening", u.id);
    poplar::Tensor vs = hyper.get("velocityScaling", u.id);
    poplar::Tensor v = stateLike(core, u.w, "velocity", u.di);
    // The velocity is held scaled by vs: v = mm * v + vs * (1 - dp) * (g + wd * w).
    popops::mapInPlace(
        graph, pe::_4 * pe::_1 + pe::_6 * (pe::Const(1.0f) - pe::_5) * (pe::_2 + pe::_7 * pe::_3),
        {v, u.g, u.w, mm, dp, vs, wd}, prog, {u.di, "velocity"});
    if (sgd.nesterov(u.id)) {
        // w -= lr * (g + wd * w + mm * v / vs)
        popops::mapInPlace(graph,
                           pe::_1 - pe::_4 * (pe::_3 + pe::_7 * pe::_1 + pe::_5 * pe::_2 / pe::_6),
                           {u.w, v, u.g, lr, mm, vs, wd}, prog, {u.di, "nesterov"});
    } else {
        // w -= lr * v / vs
        popops::mapInPlace(graph, pe::_1 - pe::_3 * pe::_2 / pe::_4, {u.w, v, lr, vs}, prog,
                           {u.di, "sgd"});
    }
}

// The L2 norm of `t` as a scalar of t's type.
poplar::Tensor norm(poplar::Graph& graph, const poplar::Tensor& t, poplar::program::Sequence& prog,
                    const poplar::DebugNameAndId& di, const std::string& name) {
    poplar::Tensor flat = t.flatten();
    poplar::Tensor sq =
        popops::reduce(graph, flat, t.elementType(), {0},
                       popops::ReduceParams(popops::Operation::SQUARE_ADD), prog, {di, name});
    return popops::map(graph, pe::Sqrt(pe::_1), {sq}, prog, {di, name});
}

void adamStep(SessionCore& core, Hyper& hyper, const WeightUpdate& u, poplar::Tensor step,
              poplar::program::Sequence& prog) {
    poplar::Graph& graph = *core.graph;
    const auto& adam = static_cast<const Adam&>(*core.optimizer);
    const AdamMode mode = adam.getMode();
    poplar::Tensor lr = hyper.get("learningRate", u.id);
    poplar::Tensor wd = hyper.get("weightDecay", u.id);
    poplar::Tensor b1 = hyper.get("beta1", u.id);
    poplar::Tensor b2 = hyper.get("beta2", u.id);
    poplar::Tensor eps = hyper.get("eps", u.id);
    poplar::Tensor m = stateLike(core, u.w, "accl1", u.di);
    poplar::Tensor v = stateLike(core, u.w, "accl2", u.di);
    const bool l2 = adam.getWeightDecayMode() == WeightDecayMode::L2Regularization;
    poplar::Tensor g = l2 ? withL2(graph, u, wd, prog) : u.g;
    popops::mapInPlace(graph, pe::_3 * pe::_1 + (pe::Const(1.0f) - pe::_3) * pe::_2, {m, g, b1},
                       prog, {u.di, "accl1"});
    if (mode == AdamMode::AdaMax)
        popops::mapInPlace(graph, pe::Max(pe::_3 * pe::_1, pe::Abs(pe::_2)), {v, g, b2}, prog,
                           {u.di, "accl2"});
    else
        popops::mapInPlace(graph, pe::_3 * pe::_1 + (pe::Const(1.0f) - pe::_3) * pe::_2 * pe::_2,
                           {v, g, b2}, prog, {u.di, "accl2"});
    // Bias corrections 1 - b^t: of m for Adam, Lamb and AdaMax; of v for Adam and Lamb.
    const bool biasM = mode == AdamMode::Adam || mode == AdamMode::Lamb || mode == AdamMode::AdaMax;
    const bool biasV = mode == AdamMode::Adam || mode == AdamMode::Lamb;
    if (biasM || biasV)
        step = hyper.inType(step, "step");
    poplar::Tensor c1 = biasM ? popops::map(graph, pe::Const(1.0f) - pe::Pow(pe::_1, pe::_2),
                                            {b1, step}, prog, {u.di, "bias1"})
                              : hyper.constant(1.0f, "bias1");
    poplar::Tensor c2 = biasV ? popops::map(graph, pe::Const(1.0f) - pe::Pow(pe::_1, pe::_2),
                                            {b2, step}, prog, {u.di, "bias2"})
                              : hyper.constant(1.0f, "bias2");
    poplar::Tensor decay = l2 ? hyper.constant(0.0f, "decay") : wd;
    // The updater term x = mc / (sqrt(vc) + eps) + decay * w (AdaMax: mc / (v + eps) + ...).
    poplar::Tensor x =
        mode == AdamMode::AdaMax
            ? popops::map(graph, (pe::_2 / pe::_5) / (pe::_3 + pe::_4) + pe::_6 * pe::_1,
                          {u.w, m, v, eps, c1, decay}, prog, {u.di, "updater"})
            : popops::map(
                  graph, (pe::_2 / pe::_5) / (pe::Sqrt(pe::_3 / pe::_6) + pe::_4) + pe::_7 * pe::_1,
                  {u.w, m, v, eps, c1, c2, decay}, prog, {u.di, "updater"});
    if (mode != AdamMode::Lamb && mode != AdamMode::LambNoBias) {
        popops::mapInPlace(graph, pe::_1 - pe::_3 * pe::_2, {u.w, x, lr}, prog, {u.di, "adam"});
        return;
    }
    // Lamb's trust ratio phi(|w|) / |x|, phi(r) = min(r, maxWeightNorm); 1 if either is 0.
    poplar::Tensor mwn = hyper.get("maxWeightNorm", u.id);
    poplar::Tensor r1 = norm(graph, u.w, prog, u.di, "lambR1");
    poplar::Tensor r2 = norm(graph, x, prog, u.di, "lambR2");
    poplar::Tensor ratio = popops::map(
        graph,
        pe::Select(pe::Min(pe::_1, pe::_3) / pe::_2, pe::Const(1.0f),
                   pe::And(pe::Min(pe::_1, pe::_3) > pe::Const(0.0f), pe::_2 > pe::Const(0.0f))),
        {r1, r2, mwn}, prog, {u.di, "lambRatio"});
    popops::mapInPlace(graph, pe::_1 - pe::_4 * pe::_3 * pe::_2, {u.w, x, lr, ratio}, prog,
                       {u.di, "lamb"});
}

void adaptiveStep(SessionCore& core, Hyper& hyper, const WeightUpdate& u,
                  poplar::program::Sequence& prog) {
    poplar::Graph& graph = *core.graph;
    const auto& adaptive = static_cast<const Adaptive&>(*core.optimizer);
    const AdaptiveMode mode = adaptive.getMode();
    poplar::Tensor lr = hyper.get("learningRate", u.id);
    poplar::Tensor wd = hyper.get("weightDecay", u.id);
    poplar::Tensor alpha = hyper.get("alpha", u.id);
    poplar::Tensor eps = hyper.get("eps", u.id);
    const bool l2 = adaptive.getWeightDecayMode() == WeightDecayMode::L2Regularization;
    poplar::Tensor g = l2 ? withL2(graph, u, wd, prog) : u.g;
    poplar::Tensor v1 = stateLike(core, u.w, "accl1", u.di);
    if (mode == AdaptiveMode::AdaGrad)
        popops::mapInPlace(graph, pe::_1 + pe::_2 * pe::_2, {v1, g}, prog, {u.di, "accl1"});
    else
        popops::mapInPlace(graph, pe::_3 * pe::_1 + (pe::Const(1.0f) - pe::_3) * pe::_2 * pe::_2,
                           {v1, g, alpha}, prog, {u.di, "accl1"});
    poplar::Tensor x;
    if (mode == AdaptiveMode::CenteredRMSProp) {
        poplar::Tensor v2 = stateLike(core, u.w, "accl2", u.di);
        popops::mapInPlace(graph, pe::_3 * pe::_1 + (pe::Const(1.0f) - pe::_3) * pe::_2,
                           {v2, g, alpha}, prog, {u.di, "accl2"});
        x = popops::map(graph, pe::_1 / (pe::Sqrt(pe::_2 - pe::_3 * pe::_3) + pe::_4),
                        {g, v1, v2, eps}, prog, {u.di, "updater"});
    } else if (mode == AdaptiveMode::AdaDelta) {
        poplar::Tensor v2 = stateLike(core, u.w, "accl2", u.di);
        x = popops::map(graph, pe::_1 * pe::Sqrt(pe::_3 + pe::_4) / pe::Sqrt(pe::_2 + pe::_4),
                        {g, v1, v2, eps}, prog, {u.di, "updater"});
        popops::mapInPlace(graph, pe::_3 * pe::_1 + (pe::Const(1.0f) - pe::_3) * pe::_2 * pe::_2,
                           {v2, x, alpha}, prog, {u.di, "accl2"});
    } else {
        x = popops::map(graph, pe::_1 / (pe::Sqrt(pe::_2) + pe::_3), {g, v1, eps}, prog,
                        {u.di, "updater"});
    }
    if (!hyper.isConst("momentum", u.id, 0.0f)) {
        poplar::Tensor mm = hyper.get("momentum", u.id);
        poplar::Tensor v3 = stateLike(core, u.w, "accl3", u.di);
        popops::mapInPlace(graph, pe::_3 * pe::_1 + pe::_2, {v3, x, mm}, prog, {u.di, "accl3"});
        x = v3;
    }
    poplar::Tensor decay = l2 ? hyper.constant(0.0f, "decay") : wd;
    // w -= lr * (v3 + decay * w)
    popops::mapInPlace(graph, pe::_1 - pe::_3 * (pe::_2 + pe::_4 * pe::_1), {u.w, x, lr, decay},
                       prog, {u.di, "adaptive"});
}

} // namespace

void lowerOptimizerStep(SessionCore& core, poplar::program::Sequence& prog) {
    poplar::Graph& graph = *core.graph;
    poplar::DebugInfo opDi(poplar::DebugContext("optimizer/" + core.optimizer->type_s()), "PopART");
    opDi.setValue("optimizer", poplar::ProfileValue(core.optimizer->type_s()));
    const poplar::DebugNameAndId di(opDi);
    Hyper hyper(core, graph, prog, di);
    poplar::Tensor step; // Adam's step count, shared by all weights
    // Gradients arrive scaled by the loss scaling and, with gradient accumulation reduced by
    // the mean, summed over the micro-batches: both are divided out first.
    const float meanDivisor = float(core.gradientMeanDivisor());
    for (const auto& id : core.weightIds) {
        auto g = core.state.grads.find(id);
        if (g == core.state.grads.end())
            continue; // the loss does not depend on this weight
        poplar::Tensor w = core.state.tensors.at(id);
        if (w.elementType() != poplar::FLOAT && w.elementType() != poplar::HALF)
            throw error("TrainingSession: weight '" + id + "' is " + w.elementType().toString() +
                        "; only FLOAT and FLOAT16 weights are trained");
        const poplar::DebugNameAndId wdi(opDi, id);
        // A HALF weight whose optimizer keeps FLOAT state is updated through a FLOAT copy,
        // rounded back to HALF after the step.
        const bool floatState = w.elementType() == poplar::HALF &&
                                core.optimizer->stateTypeOfHalfWeights() == DataType::FLOAT;
        poplar::Tensor uw = w, ug = g->second;
        if (floatState) {
            uw = popops::cast(graph, w, poplar::FLOAT, prog, {wdi, "weightAsFloat"});
            ug = popops::cast(graph, ug, poplar::FLOAT, prog, {wdi, "gradAsFloat"});
        }
        hyper.setType(uw.elementType());
        poplar::Tensor ls = hyper.get("lossScaling", id);
        poplar::Tensor grad = popops::map(graph, pe::_1 / (pe::_2 * pe::Const(meanDivisor)),
                                          {ug, ls}, prog, {wdi, "unscaledGrad"});
        const WeightUpdate u{id, uw, grad, wdi};
        switch (core.optimizer->type()) {
        case OptimizerType::SGD:
            sgdStep(core, hyper, u, prog);
            break;
        case OptimizerType::Adam:
            if (!step.valid()) {
                step = graph.addVariable(poplar::FLOAT, {}, {di, "step"});
                graph.setTileMapping(step, 0);
                core.stateToZero.push_back(step);
                popops::mapInPlace(graph, pe::_1 + pe::Const(1.0f), {step}, prog, {di, "step"});
            }
            adamStep(core, hyper, u, step, prog);
            break;
        case OptimizerType::Adaptive:
            adaptiveStep(core, hyper, u, prog);
            break;
        default:
            throw internal_error("TrainingSession: unknown optimizer " + core.optimizer->type_s());
        }
        if (floatState)
            popops::cast(graph, uw, w, prog, {wdi, "weightToHalf"});
    }
}

} // namespace popart
