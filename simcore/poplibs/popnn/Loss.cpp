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

namespace popnn {

namespace pl = tilescope::poplibs;
using poplar::Tensor;
using tilescope::sim::abi::describeField;
using tilescope::sim::abi::FieldVisitor;

namespace {

/// Loss, deltas and whether the arg-max is the label, for a run of rows of numClasses outputs.
template <typename T, typename Label, LossType LT> class LossCalc : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<T>> probs;
    poplar::Input<poplar::Vector<Label>> label;
    poplar::Output<poplar::Vector<T>> loss;
    poplar::Output<poplar::Vector<T>> deltas;
    poplar::Output<poplar::Vector<int>> correct;
    unsigned numClasses = 1;

    bool compute() {
        for (std::size_t row = 0; row < loss.size(); ++row) {
            const std::size_t base = row * numClasses;
            const auto expected = static_cast<std::size_t>(label[row]);
            float sum = 0.0f;
            std::size_t best = 0;
            for (std::size_t c = 0; c < numClasses; ++c) {
                const float y = static_cast<float>(probs[base + c]);
                const float delta = y - (c == expected ? 1.0f : 0.0f);
                deltas[base + c] = static_cast<T>(delta);
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
                loss[row] = static_cast<T>(-std::log(std::max(p, 1e-7f)));
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
        describeField(f, "numClasses", v.numClasses);
    }
};

const char* lossName(LossType t) {
    return t == SUM_SQUARED_LOSS ? "SUM_SQUARED_LOSS" : "CROSS_ENTROPY_LOSS";
}

std::string vertexName(const poplar::Type& type, const poplar::Type& label, LossType lt) {
    return poputil::templateVertex("popnn::LossCalc", type, label,
                                   std::string("popnn::") + lossName(lt));
}

template <typename T, typename Label> void registerFor(poplar::Graph& graph) {
    const poplar::Type type = poplar::equivalent_device_type<T>().value;
    const poplar::Type label = poplar::equivalent_device_type<Label>().value;
    tilescope::sim::registerBuiltinVertex<LossCalc<T, Label, SUM_SQUARED_LOSS>>(
        graph, vertexName(type, label, SUM_SQUARED_LOSS),
        &LossCalc<T, Label, SUM_SQUARED_LOSS>::visit);
    tilescope::sim::registerBuiltinVertex<LossCalc<T, Label, CROSS_ENTROPY_LOSS>>(
        graph, vertexName(type, label, CROSS_ENTROPY_LOSS),
        &LossCalc<T, Label, CROSS_ENTROPY_LOSS>::visit);
}

void calcLossImpl(poplar::Graph& graph, const Tensor& modelOutputs, const Tensor& expected,
                  const Tensor& loss, const Tensor& deltas, const Tensor* numCorrect,
                  LossType lossType, poplar::program::Sequence& prog,
                  const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, "calcLoss");
    di.setValue("lossType", lossName(lossType));
    const std::string api = "popnn::calcLoss";
    const auto type = modelOutputs.elementType();
    if (modelOutputs.rank() != 2 || modelOutputs.numElements() == 0)
        throw poplar::poplar_error(api + ": model outputs '" + modelOutputs.getName() +
                                   "' must be a non-empty {batch, classes} tensor, got " +
                                   modelOutputs.shapeToString());
    if (type != poplar::FLOAT && type != poplar::HALF)
        throw poplar::poplar_error(api + ": model outputs '" + modelOutputs.getName() +
                                   "' have type " + type.toString() +
                                   "; FLOAT and HALF are supported");
    const std::size_t batch = modelOutputs.dim(0), classes = modelOutputs.dim(1);
    const auto labelType = expected.elementType();
    if (expected.shape() != std::vector<std::size_t>{batch} ||
        (labelType != poplar::INT && labelType != poplar::UNSIGNED_INT))
        throw poplar::poplar_error(api + ": expected labels '" + expected.getName() + "' " +
                                   expected.shapeToString() + " of type " + labelType.toString() +
                                   " must be INT or UNSIGNED_INT of shape {" +
                                   std::to_string(batch) + "}");
    if (loss.shape() != std::vector<std::size_t>{batch} || loss.elementType() != type)
        throw poplar::poplar_error(api + ": loss '" + loss.getName() + "' " + loss.shapeToString() +
                                   " must be " + type.toString() + " of shape {" +
                                   std::to_string(batch) + "}");
    if (deltas.shape() != modelOutputs.shape() || deltas.elementType() != type)
        throw poplar::poplar_error(api + ": deltas '" + deltas.getName() + "' " +
                                   deltas.shapeToString() + " must be " + type.toString() +
                                   " of the model outputs' shape " + modelOutputs.shapeToString());
    if (numCorrect && (numCorrect->numElements() != 1 || numCorrect->elementType() != poplar::INT))
        throw poplar::poplar_error(api + ": numCorrect '" + numCorrect->getName() +
                                   "' must be a single INT element");

    Tensor correct = graph.clone(poplar::INT, loss, {di, "correct"});
    poplar::ComputeSet cs = graph.addComputeSet({di, "calcLoss"});
    const auto& target = graph.getTarget();
    pl::addElementWiseVertices(
        graph, cs, vertexName(type, labelType, lossType), loss,
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
        });
    prog.add(poplar::program::Execute(cs, {di}));
    di.addFlops(3 * batch * classes);
    if (numCorrect)
        popops::reduceWithOutput(graph, correct, numCorrect->flatten(), {0}, popops::Operation::ADD,
                                 prog, {di, "numCorrect"});
}

} // namespace

namespace detail {
void registerLossVertices(poplar::Graph& graph) {
    registerFor<float, int>(graph);
    registerFor<float, unsigned>(graph);
    registerFor<poplar::half, int>(graph);
    registerFor<poplar::half, unsigned>(graph);
}
} // namespace detail

void calcLoss(poplar::Graph& graph, const Tensor& modelOutputs, const Tensor& expected,
              const Tensor& loss, const Tensor& deltas, LossType lossType,
              poplar::program::Sequence& prog, const poplar::DebugContext& debugContext) {
    calcLossImpl(graph, modelOutputs, expected, loss, deltas, nullptr, lossType, prog,
                 debugContext);
}

void calcLoss(poplar::Graph& graph, const Tensor& modelOutputs, const Tensor& expected,
              const Tensor& loss, const Tensor& deltas, const Tensor& numCorrect, LossType lossType,
              poplar::program::Sequence& prog, const poplar::DebugContext& debugContext) {
    calcLossImpl(graph, modelOutputs, expected, loss, deltas, &numCorrect, lossType, prog,
                 debugContext);
}

} // namespace popnn
