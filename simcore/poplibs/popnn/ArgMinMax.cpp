// popnn::argMax, argMin, maxAndArgMax, minAndArgMin, topK (over popops' row top-k vertices) and
// calcAccuracy, and their vertices:
// each row of a {rows, columns} tensor is scanned by one worker where the row's index output lives.

#include "common/CycleEstimates.hpp"
#include "common/ElementWiseBuilder.hpp"
#include "popnn/Loss.hpp"
#include "popnn/PopnnCodelets.hpp"
#include "popops/TopKRows.hpp"
#include "tilescope/sim/BuiltinVertex.hpp"

#include <algorithm>
#include <numeric>
#include <poplar/exceptions.hpp>
#include <popops/Reduction.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popnn {

namespace pl = tilescope::poplibs;
using poplar::Tensor;
using tilescope::sim::abi::describeField;
using tilescope::sim::abi::FieldVisitor;

namespace {

/// For each row of numColumns values: the first column holding the largest (Max) or smallest
/// value, and that value.
template <typename T, bool Max> class ArgMinMax : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<T>> in;
    poplar::Output<poplar::Vector<T>> value;
    poplar::Output<poplar::Vector<unsigned>> index;
    unsigned numColumns = 1;

    bool compute() {
        using C = std::conditional_t<std::is_same_v<T, poplar::half>, float, T>;
        for (std::size_t row = 0; row < index.size(); ++row) {
            const std::size_t base = row * numColumns;
            std::size_t best = 0;
            C bestValue = static_cast<C>(in[base]);
            for (std::size_t c = 1; c < numColumns; ++c) {
                const C v = static_cast<C>(in[base + c]);
                if (Max ? v > bestValue : v < bestValue) {
                    best = c;
                    bestValue = v;
                }
            }
            index[row] = static_cast<unsigned>(best);
            value[row] = in[base + best];
        }
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<ArgMinMax*>(o);
        describeField(f, "in", v.in);
        describeField(f, "value", v.value);
        describeField(f, "index", v.index);
        describeField(f, "numColumns", v.numColumns);
    }
};

/// correct[row] = 1 when the row's first largest output is at its label.
template <typename T, typename Label, typename Correct> class Accuracy : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<T>> probs;
    poplar::Input<poplar::Vector<Label>> label;
    poplar::Output<poplar::Vector<Correct>> correct;
    unsigned numClasses = 1;

    bool compute() {
        for (std::size_t row = 0; row < correct.size(); ++row) {
            const std::size_t base = row * numClasses;
            std::size_t best = 0;
            for (std::size_t c = 1; c < numClasses; ++c)
                if (static_cast<float>(probs[base + c]) > static_cast<float>(probs[base + best]))
                    best = c;
            // A masked label (MASKED_LABEL_CODE) never matches a column.
            correct[row] = static_cast<unsigned>(label[row]) != MASKED_LABEL_CODE &&
                                   best == static_cast<std::size_t>(label[row])
                               ? 1
                               : 0;
        }
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<Accuracy*>(o);
        describeField(f, "probs", v.probs);
        describeField(f, "label", v.label);
        describeField(f, "correct", v.correct);
        describeField(f, "numClasses", v.numClasses);
    }
};

template <typename T> poplar::Type typeOf() {
    return poplar::equivalent_device_type<T>().value;
}

template <typename T> void registerArgMinMax(poplar::Graph& graph) {
    tilescope::sim::registerBuiltinVertex<ArgMinMax<T, true>>(
        graph, poputil::templateVertex("popnn::ArgMinMax", typeOf<T>(), "true"),
        &ArgMinMax<T, true>::visit);
    tilescope::sim::registerBuiltinVertex<ArgMinMax<T, false>>(
        graph, poputil::templateVertex("popnn::ArgMinMax", typeOf<T>(), "false"),
        &ArgMinMax<T, false>::visit);
}

template <typename T, typename Label> void registerAccuracy(poplar::Graph& graph) {
    tilescope::sim::registerBuiltinVertex<Accuracy<T, Label, unsigned>>(
        graph,
        poputil::templateVertex("popnn::Accuracy", typeOf<T>(), typeOf<Label>(),
                                poplar::UNSIGNED_INT),
        &Accuracy<T, Label, unsigned>::visit);
    tilescope::sim::registerBuiltinVertex<Accuracy<T, Label, int>>(
        graph,
        poputil::templateVertex("popnn::Accuracy", typeOf<T>(), typeOf<Label>(), poplar::INT),
        &Accuracy<T, Label, int>::visit);
}

std::pair<Tensor, Tensor> argMinMax(poplar::Graph& graph, const Tensor& input,
                                    poplar::program::Sequence& prog,
                                    const poplar::DebugContext& debugContext, bool max,
                                    const std::string& api) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(input), api);
    const auto type = input.elementType();
    if (input.rank() != 2 || input.dim(0) == 0 || input.dim(1) == 0)
        throw poputil::poplibs_error("popnn::" + api + ": input '" + input.getName() +
                                     "' must be a non-empty 2D {rows, columns} tensor, got " +
                                     input.shapeToString());
    if (type != poplar::FLOAT && type != poplar::HALF && type != poplar::INT &&
        type != poplar::UNSIGNED_INT)
        throw poputil::poplibs_error("popnn::" + api + ": input '" + input.getName() +
                                     "' has type " + type.toString() +
                                     "; FLOAT, HALF, INT and UNSIGNED_INT are supported");
    const std::size_t rows = input.dim(0), columns = input.dim(1);
    Tensor index = graph.addVariable(poplar::UNSIGNED_INT, {rows}, {di, "index"});
    poputil::mapTensorLinearly(graph, index);
    Tensor value = graph.clone(type, index, {di, "value"});
    poplar::ComputeSet cs = graph.addComputeSet({di, api});
    pl::addElementWiseVertices(
        graph, cs, poputil::templateVertex("popnn::ArgMinMax", type, max ? "true" : "false"), index,
        {{"in", input}, {"value", value}, {"index", index}},
        [&](std::size_t n) { return pl::cycles::rowScan(n, columns); },
        [&](poplar::VertexRef v) {
            graph.setInitialValue(v["numColumns"], static_cast<unsigned>(columns));
        });
    prog.add(poplar::program::Execute(cs, {di}));
    return {value, index};
}

} // namespace

namespace detail {
void registerArgMinMaxVertices(poplar::Graph& graph) {
    registerArgMinMax<float>(graph);
    registerArgMinMax<poplar::half>(graph);
    registerArgMinMax<int>(graph);
    registerArgMinMax<unsigned>(graph);
    registerAccuracy<float, int>(graph);
    registerAccuracy<float, unsigned>(graph);
    registerAccuracy<poplar::half, int>(graph);
    registerAccuracy<poplar::half, unsigned>(graph);
}
} // namespace detail

Tensor argMax(poplar::Graph& graph, const Tensor& input, poplar::program::Sequence& prog,
              const poplar::DebugContext& debugContext) {
    return argMinMax(graph, input, prog, debugContext, true, "argMax").second;
}

std::pair<Tensor, Tensor> maxAndArgMax(poplar::Graph& graph, const Tensor& input,
                                       poplar::program::Sequence& prog,
                                       const poplar::DebugContext& debugContext) {
    return argMinMax(graph, input, prog, debugContext, true, "maxAndArgMax");
}

Tensor argMin(poplar::Graph& graph, const Tensor& input, poplar::program::Sequence& prog,
              const poplar::DebugContext& debugContext) {
    return argMinMax(graph, input, prog, debugContext, false, "argMin").second;
}

std::pair<Tensor, Tensor> minAndArgMin(poplar::Graph& graph, const Tensor& input,
                                       poplar::program::Sequence& prog,
                                       const poplar::DebugContext& debugContext) {
    return argMinMax(graph, input, prog, debugContext, false, "minAndArgMin");
}

Tensor topK(poplar::Graph& graph, const Tensor& input, Tensor& indices, unsigned K, bool sort,
            poplar::program::Sequence& prog, const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(input, K, sort), "topK");
    di.setValue("K", K);
    di.setValue("sort", sort);
    if (input.rank() != 2)
        throw poputil::poplibs_error("popnn::topK: input '" + input.getName() + "' of shape " +
                                     input.shapeToString() + " must be 2D {rows, columns}");
    // Largest first whatever `sort` says: a sorted result is also a valid unsorted one.
    Tensor values = popops::detail::topKRows(graph, prog, input, K, popops::detail::TopKRowsOrder{},
                                             indices, di, "popnn::topK");
    di.addOutput(values);
    return values;
}

poplar::program::Program calcAccuracy(poplar::Graph& graph, const Tensor& modelOutputs,
                                      const Tensor& expected, const Tensor& numCorrect,
                                      const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(modelOutputs, expected, numCorrect),
                              "calcAccuracy");
    const std::string api = "popnn::calcAccuracy";
    const auto type = modelOutputs.elementType();
    if (modelOutputs.rank() != 2 || modelOutputs.numElements() == 0 ||
        (type != poplar::FLOAT && type != poplar::HALF))
        throw poputil::poplibs_error(api + ": model outputs '" + modelOutputs.getName() +
                                     "' must be a non-empty FLOAT or HALF {batch, classes} tensor, "
                                     "got " +
                                     type.toString() + " " + modelOutputs.shapeToString());
    const std::size_t batch = modelOutputs.dim(0), classes = modelOutputs.dim(1);
    const auto labelType = expected.elementType();
    if (expected.shape() != std::vector<std::size_t>{batch} ||
        (labelType != poplar::INT && labelType != poplar::UNSIGNED_INT))
        throw poputil::poplibs_error(api + ": expected labels '" + expected.getName() + "' " +
                                     expected.shapeToString() + " of type " + labelType.toString() +
                                     " must be INT or UNSIGNED_INT of shape {" +
                                     std::to_string(batch) + "}");
    const auto correctType = numCorrect.elementType();
    if (numCorrect.numElements() != 1 ||
        (correctType != poplar::UNSIGNED_INT && correctType != poplar::INT))
        throw poputil::poplibs_error(
            api + ": numCorrect '" + numCorrect.getName() + "' " + numCorrect.shapeToString() +
            " of type " + correctType.toString() + " must be a single UNSIGNED_INT or INT element");
    poplar::program::Sequence prog;
    Tensor correct = graph.addVariable(correctType, {batch}, {di, "correct"});
    poputil::mapTensorLinearly(graph, correct);
    poplar::ComputeSet cs = graph.addComputeSet({di, "calcAccuracy"});
    pl::addElementWiseVertices(
        graph, cs, poputil::templateVertex("popnn::Accuracy", type, labelType, correctType),
        correct, {{"probs", modelOutputs}, {"label", expected}, {"correct", correct}},
        [&](std::size_t rows) { return pl::cycles::rowScan(rows, classes); },
        [&](poplar::VertexRef v) {
            graph.setInitialValue(v["numClasses"], static_cast<unsigned>(classes));
        });
    prog.add(poplar::program::Execute(cs, {di}));
    // Added to numCorrect, as PopLibs' CalcAccuracy vertex does (InOut count).
    popops::reduceWithOutput(graph, correct, numCorrect.flatten(), {0},
                             popops::ReduceParams(popops::Operation::ADD, true), prog,
                             {di, "numCorrect"});
    return prog;
}

} // namespace popnn
