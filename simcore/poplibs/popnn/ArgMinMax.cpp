// popnn::argMax, argMin, maxAndArgMax, minAndArgMin, topK and calcAccuracy, and their vertices:
// each row of a {rows, columns} tensor is scanned by one worker where the row's index output lives.

#include "common/CycleEstimates.hpp"
#include "common/ElementWiseBuilder.hpp"
#include "popnn/Loss.hpp"
#include "popnn/PopnnCodelets.hpp"
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

/// The k largest values of each row of numColumns and their columns, largest first; equal
/// values keep the lower column first.
template <typename T> class TopK : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<T>> in;
    poplar::Output<poplar::Vector<T>> value;
    poplar::Output<poplar::Vector<unsigned>> index;
    unsigned numColumns = 1;
    unsigned k = 1;

    bool compute() {
        using C = std::conditional_t<std::is_same_v<T, poplar::half>, float, T>;
        std::vector<unsigned> order(numColumns);
        const std::size_t rows = index.size() / k;
        for (std::size_t row = 0; row < rows; ++row) {
            const std::size_t base = row * numColumns;
            std::iota(order.begin(), order.end(), 0u);
            std::partial_sort(order.begin(), order.begin() + k, order.end(),
                              [&](unsigned a, unsigned b) {
                                  const C x = static_cast<C>(in[base + a]);
                                  const C y = static_cast<C>(in[base + b]);
                                  return x > y || (x == y && a < b);
                              });
            for (unsigned j = 0; j < k; ++j) {
                index[row * k + j] = order[j];
                value[row * k + j] = in[base + order[j]];
            }
        }
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<TopK*>(o);
        describeField(f, "in", v.in);
        describeField(f, "value", v.value);
        describeField(f, "index", v.index);
        describeField(f, "numColumns", v.numColumns);
        describeField(f, "k", v.k);
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

template <typename T> void registerTopK(poplar::Graph& graph) {
    tilescope::sim::registerBuiltinVertex<TopK<T>>(
        graph, poputil::templateVertex("popnn::TopK", typeOf<T>()), &TopK<T>::visit);
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
    pl::PoplibsOpDebugInfo di(debugContext, api);
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
    registerTopK<float>(graph);
    registerTopK<poplar::half>(graph);
    registerTopK<int>(graph);
    registerTopK<unsigned>(graph);
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
    pl::PoplibsOpDebugInfo di(debugContext, "topK");
    di.setValue("K", K);
    di.setValue("sort", sort);
    const auto type = input.elementType();
    if (input.rank() != 2 || input.dim(0) == 0 || K == 0 || K > input.dim(1))
        throw poputil::poplibs_error(
            "popnn::topK: input '" + input.getName() + "' of shape " + input.shapeToString() +
            " must be 2D {rows, columns} with 1 <= K <= columns, K = " + std::to_string(K));
    if (type != poplar::FLOAT && type != poplar::HALF && type != poplar::INT &&
        type != poplar::UNSIGNED_INT)
        throw poputil::poplibs_error("popnn::topK: input '" + input.getName() + "' has type " +
                                     type.toString() +
                                     "; FLOAT, HALF, INT and UNSIGNED_INT are supported");
    const std::size_t rows = input.dim(0), columns = input.dim(1);
    // One vertex per row group: the rows are the unit, so map a {rows} handle and view the
    // {rows, K} outputs through it.
    Tensor rowHandle = graph.addVariable(poplar::UNSIGNED_INT, {rows}, {di, "rows"});
    poputil::mapTensorLinearly(graph, rowHandle);
    indices = graph.addVariable(poplar::UNSIGNED_INT, {rows, K}, {di, "indices"});
    Tensor values = graph.addVariable(type, {rows, K}, {di, "values"});
    const auto rowMapping = graph.getTileMapping(rowHandle);
    for (unsigned tile = 0; tile < rowMapping.size(); ++tile)
        for (const auto& r : rowMapping[tile]) {
            graph.setTileMapping(indices.slice(r.begin(), r.end()), tile);
            graph.setTileMapping(values.slice(r.begin(), r.end()), tile);
        }
    poplar::ComputeSet cs = graph.addComputeSet({di, "topK"});
    pl::addElementWiseVertices(
        graph, cs, poputil::templateVertex("popnn::TopK", type), rowHandle,
        {{"in", input}, {"value", values}, {"index", indices}},
        [&](std::size_t n) {
            // A partial sort: about log2(K) compares per column.
            std::size_t log2K = 1;
            while ((std::size_t(1) << log2K) < K)
                ++log2K;
            return pl::cycles::rowScan(n, columns * log2K);
        },
        [&](poplar::VertexRef v) {
            graph.setInitialValue(v["numColumns"], static_cast<unsigned>(columns));
            graph.setInitialValue(v["k"], K);
        });
    prog.add(poplar::program::Execute(cs, {di}));
    return values;
}

poplar::program::Program calcAccuracy(poplar::Graph& graph, const Tensor& modelOutputs,
                                      const Tensor& expected, const Tensor& numCorrect,
                                      const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, "calcAccuracy");
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
