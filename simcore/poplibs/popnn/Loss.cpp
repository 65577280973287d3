// popnn::calcLoss and its vertex.

#include "popnn/Loss.hpp"

#include "common/CycleEstimates.hpp"
#include "common/ElementWiseBuilder.hpp"
#include "popnn/PopnnCodelets.hpp"
#include "tilescope/sim/BuiltinVertex.hpp"

#include <cmath>
#include <poplar/exceptions.hpp>
#include <popops/Reduction.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popnn {

namespace pl = tilescope::poplibs;
using poplar::Tensor;
using tilescope::sim::abi::describeField;
using tilescope::sim::abi::FieldVisitor;

namespace {

/// Loss, deltas and whether the arg-max is the label, for a run of rows of numClasses outputs.
/// `deltasScale` and `modelOutputScaling` are PopLibs' loss scaling (1 when not given).
template <typename T, typename Label, typename Correct, LossType LT>
class LossCalc : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<T>> probs;
    poplar::Input<poplar::Vector<Label>> label;
    poplar::Output<poplar::Vector<T>> loss;
    poplar::Output<poplar::Vector<T>> deltas;
    poplar::Output<poplar::Vector<Correct>> correct;
    poplar::Input<T> deltasScale;
    poplar::Input<T> modelOutputScaling;
    unsigned numClasses = 1;

    bool compute() {
        const float outputScaling = static_cast<float>(T(modelOutputScaling));
        const float scale = static_cast<float>(T(deltasScale)) / outputScaling;
        const float logOutputScaling = std::log(outputScaling);
        for (std::size_t row = 0; row < loss.size(); ++row) {
            const std::size_t base = row * numClasses;
            if (static_cast<unsigned>(label[row]) == MASKED_LABEL_CODE) {
                // A masked row contributes nothing (PopLibs' MASKED_LABEL_CODE).
                for (std::size_t c = 0; c < numClasses; ++c)
                    deltas[base + c] = T(0.0f);
                loss[row] = T(0.0f);
                correct[row] = 0;
                continue;
            }
            const auto expected = static_cast<std::size_t>(label[row]);
            float sum = 0.0f;
            std::size_t best = 0;
            for (std::size_t c = 0; c < numClasses; ++c) {
                const float y = static_cast<float>(probs[base + c]);
                const float target = c == expected ? outputScaling : 0.0f;
                const float delta = y - target;
                deltas[base + c] = static_cast<T>(scale * delta);
                sum += delta * delta;
                if (y > static_cast<float>(probs[base + best]))
                    best = c;
            }
            if constexpr (LT == SUM_SQUARED_LOSS) {
                loss[row] = static_cast<T>(0.5f * sum);
            } else {
                // Clamped away from 0 so a confident wrong answer costs a large finite loss.
                const float p =
                    expected < numClasses ? static_cast<float>(probs[base + expected]) : 0.0f;
                loss[row] = static_cast<T>(-(std::log(std::max(p, 1e-7f)) - logOutputScaling));
            }
            correct[row] = best == expected ? 1 : 0;
        }
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<LossCalc*>(o);
        describeField(f, "probs", v.probs);
        describeField(f, "label", v.label);
        describeField(f, "loss", v.loss);
        describeField(f, "deltas", v.deltas);
        describeField(f, "correct", v.correct);
        describeField(f, "deltasScale", v.deltasScale);
        describeField(f, "modelOutputScaling", v.modelOutputScaling);
        describeField(f, "numClasses", v.numClasses);
    }
};

const char* lossName(LossType t) {
    return t == SUM_SQUARED_LOSS ? "SUM_SQUARED_LOSS" : "CROSS_ENTROPY_LOSS";
}

std::string vertexName(const poplar::Type& type, const poplar::Type& label,
                       const poplar::Type& correct, LossType lt) {
    return poputil::templateVertex("popnn::LossCalc", type, label, correct,
                                   std::string("popnn::") + lossName(lt));
}

template <typename T, typename Label, typename Correct> void registerFor(poplar::Graph& graph) {
    const poplar::Type type = poplar::equivalent_device_type<T>().value;
    const poplar::Type label = poplar::equivalent_device_type<Label>().value;
    const poplar::Type correct = poplar::equivalent_device_type<Correct>().value;
    using SumSquared = LossCalc<T, Label, Correct, SUM_SQUARED_LOSS>;
    using CrossEntropy = LossCalc<T, Label, Correct, CROSS_ENTROPY_LOSS>;
    tilescope::sim::registerBuiltinVertex<SumSquared>(
        graph, vertexName(type, label, correct, SUM_SQUARED_LOSS), &SumSquared::visit);
    tilescope::sim::registerBuiltinVertex<CrossEntropy>(
        graph, vertexName(type, label, correct, CROSS_ENTROPY_LOSS), &CrossEntropy::visit);
}

/// The optional tensors of a calcLoss call (null when the form does not take them).
struct LossExtras {
    const Tensor* numCorrect = nullptr;
    const Tensor* deltasScale = nullptr;
    const Tensor* modelOutputScaling = nullptr;
};

void checkScalar(const std::string& api, const char* what, const Tensor& t,
                 const poplar::Type& type) {
    if (t.numElements() != 1 || t.elementType() != type)
        throw poputil::poplibs_error(api + ": " + what + " '" + t.getName() + "' " +
                                     t.shapeToString() + " of type " + t.elementType().toString() +
                                     " must be a single " + type.toString() + " element");
}

/// A scalar constant 1 of `type` for an absent scaling tensor.
Tensor one(poplar::Graph& graph, const poplar::Type& type, const poplar::DebugContext& dc) {
    Tensor t = graph.addConstant(type, {}, 1.0f, dc);
    graph.setTileMapping(t, 0);
    return t;
}

void calcLossImpl(poplar::Graph& graph, const Tensor& modelOutputs, const Tensor& expected,
                  const Tensor& loss, const Tensor& deltas, const LossExtras& extras,
                  LossType lossType, poplar::program::Sequence& prog,
                  const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(modelOutputs, expected, loss, deltas),
                              "calcLoss");
    di.setValue("lossType", lossName(lossType));
    const std::string api = "popnn::calcLoss";
    const auto type = modelOutputs.elementType();
    if (modelOutputs.rank() != 2 || modelOutputs.numElements() == 0)
        throw poputil::poplibs_error(api + ": model outputs '" + modelOutputs.getName() +
                                     "' must be a non-empty {batch, classes} tensor, got " +
                                     modelOutputs.shapeToString());
    if (type != poplar::FLOAT && type != poplar::HALF)
        throw poputil::poplibs_error(api + ": model outputs '" + modelOutputs.getName() +
                                     "' have type " + type.toString() +
                                     "; FLOAT and HALF are supported");
    const std::size_t batch = modelOutputs.dim(0), classes = modelOutputs.dim(1);
    const auto labelType = expected.elementType();
    if (expected.shape() != std::vector<std::size_t>{batch} ||
        (labelType != poplar::INT && labelType != poplar::UNSIGNED_INT))
        throw poputil::poplibs_error(api + ": expected labels '" + expected.getName() + "' " +
                                     expected.shapeToString() + " of type " + labelType.toString() +
                                     " must be INT or UNSIGNED_INT of shape {" +
                                     std::to_string(batch) + "}");
    if (loss.shape() != std::vector<std::size_t>{batch} || loss.elementType() != type)
        throw poputil::poplibs_error(api + ": loss '" + loss.getName() + "' " +
                                     loss.shapeToString() + " must be " + type.toString() +
                                     " of shape {" + std::to_string(batch) + "}");
    if (deltas.shape() != modelOutputs.shape() || deltas.elementType() != type)
        throw poputil::poplibs_error(
            api + ": deltas '" + deltas.getName() + "' " + deltas.shapeToString() + " must be " +
            type.toString() + " of the model outputs' shape " + modelOutputs.shapeToString());
    poplar::Type correctType = poplar::UNSIGNED_INT;
    if (const Tensor* numCorrect = extras.numCorrect) {
        correctType = numCorrect->elementType();
        if (numCorrect->numElements() != 1 ||
            (correctType != poplar::UNSIGNED_INT && correctType != poplar::INT))
            throw poputil::poplibs_error(api + ": numCorrect '" + numCorrect->getName() + "' " +
                                         numCorrect->shapeToString() + " of type " +
                                         correctType.toString() +
                                         " must be a single UNSIGNED_INT or INT element");
    }
    Tensor deltasScale, modelOutputScaling;
    if (extras.deltasScale) {
        if (lossType != CROSS_ENTROPY_LOSS)
            throw poputil::poplibs_error(api + ": loss scaling (deltasScale, modelOutputScaling) "
                                               "is implemented for CROSS_ENTROPY_LOSS only, as in "
                                               "PopLibs");
        checkScalar(api, "deltasScale", *extras.deltasScale, type);
        checkScalar(api, "modelOutputScaling", *extras.modelOutputScaling, type);
        deltasScale = extras.deltasScale->reshape({});
        modelOutputScaling = extras.modelOutputScaling->reshape({});
    } else {
        deltasScale = one(graph, type, {di, "deltasScale"});
        modelOutputScaling = one(graph, type, {di, "modelOutputScaling"});
    }

    Tensor correct = graph.clone(correctType, loss, {di, "correct"});
    poplar::ComputeSet cs = graph.addComputeSet({di, "calcLoss"});
    const auto& target = graph.getTarget();
    pl::addElementWiseVertices(
        graph, cs, vertexName(type, labelType, correctType, lossType), loss,
        {{"probs", modelOutputs},
         {"label", expected},
         {"loss", loss},
         {"deltas", deltas},
         {"correct", correct}},
        [&](std::size_t rows) {
            return pl::cycles::elementWise(target, type, rows * classes, 2, false) +
                   rows * (lossType == CROSS_ENTROPY_LOSS
                               ? pl::cycles::kTranscendentalCyclesPerElement
                               : 1);
        },
        [&](poplar::VertexRef v) {
            graph.setInitialValue(v["numClasses"], static_cast<unsigned>(classes));
            graph.connect(v["deltasScale"], deltasScale);
            graph.connect(v["modelOutputScaling"], modelOutputScaling);
        });
    prog.add(poplar::program::Execute(cs, {di}));
    di.addFlops(3 * batch * classes);
    // PopLibs adds this batch's count to numCorrect (its vertex has an InOut count), so a
    // loop over batches accumulates; the caller zeroes it.
    if (extras.numCorrect)
        popops::reduceWithOutput(graph, correct, extras.numCorrect->flatten(), {0},
                                 popops::ReduceParams(popops::Operation::ADD, true), prog,
                                 {di, "numCorrect"});
}

} // namespace

namespace detail {
void registerLossVertices(poplar::Graph& graph) {
    registerFor<float, int, unsigned>(graph);
    registerFor<float, unsigned, unsigned>(graph);
    registerFor<poplar::half, int, unsigned>(graph);
    registerFor<poplar::half, unsigned, unsigned>(graph);
    registerFor<float, int, int>(graph);
    registerFor<float, unsigned, int>(graph);
    registerFor<poplar::half, int, int>(graph);
    registerFor<poplar::half, unsigned, int>(graph);
}
} // namespace detail

void calcLoss(poplar::Graph& graph, const Tensor& modelOutputs, const Tensor& expected,
              const Tensor& loss, const Tensor& deltas, LossType lossType,
              poplar::program::Sequence& prog, const poplar::DebugContext& debugContext) {
    calcLossImpl(graph, modelOutputs, expected, loss, deltas, {}, lossType, prog, debugContext);
}

void calcLoss(poplar::Graph& graph, const Tensor& modelOutputs, const Tensor& expected,
              const Tensor& loss, const Tensor& deltas, const Tensor& numCorrect, LossType lossType,
              poplar::program::Sequence& prog, const poplar::DebugContext& debugContext) {
    LossExtras extras;
    extras.numCorrect = &numCorrect;
    calcLossImpl(graph, modelOutputs, expected, loss, deltas, extras, lossType, prog, debugContext);
}

poplar::program::Program calcLoss(poplar::Graph& graph, const Tensor& modelOutputs,
                                  const Tensor& expected, const Tensor& loss, const Tensor& deltas,
                                  LossType lossType, const poplar::DebugContext& debugContext) {
    poplar::program::Sequence prog;
    calcLossImpl(graph, modelOutputs, expected, loss, deltas, {}, lossType, prog, debugContext);
    return prog;
}

poplar::program::Program calcLoss(poplar::Graph& graph, const Tensor& modelOutputs,
                                  const Tensor& expected, const Tensor& loss, const Tensor& deltas,
                                  const Tensor& numCorrect, LossType lossType,
                                  const poplar::DebugContext& debugContext) {
    poplar::program::Sequence prog;
    LossExtras extras;
    extras.numCorrect = &numCorrect;
    calcLossImpl(graph, modelOutputs, expected, loss, deltas, extras, lossType, prog, debugContext);
    return prog;
}

poplar::program::Program calcLoss(poplar::Graph& graph, const Tensor& modelOutputs,
                                  const Tensor& expected, const Tensor& loss, const Tensor& deltas,
                                  const Tensor& deltasScale, const Tensor& modelOutputScaling,
                                  LossType lossType, const poplar::DebugContext& debugContext) {
    poplar::program::Sequence prog;
    LossExtras extras;
    extras.deltasScale = &deltasScale;
    extras.modelOutputScaling = &modelOutputScaling;
    calcLossImpl(graph, modelOutputs, expected, loss, deltas, extras, lossType, prog, debugContext);
    return prog;
}

poplar::program::Program calcLoss(poplar::Graph& graph, const Tensor& modelOutputs,
                                  const Tensor& expected, const Tensor& loss, const Tensor& deltas,
                                  const Tensor& deltasScale, const Tensor& modelOutputScaling,
                                  const Tensor& numCorrect, LossType lossType,
                                  const poplar::DebugContext& debugContext) {
    poplar::program::Sequence prog;
    LossExtras extras;
    extras.numCorrect = &numCorrect;
    extras.deltasScale = &deltasScale;
    extras.modelOutputScaling = &modelOutputScaling;
    calcLossImpl(graph, modelOutputs, expected, loss, deltas, extras, lossType, prog, debugContext);
    return prog;
}

} // namespace popnn
