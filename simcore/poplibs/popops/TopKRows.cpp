// The row top-k vertices (popops::TopK, popops::GatherRows) and the builders placing them:
// each row of a {rows, columns} tensor is handled by one worker where the row's outputs live.

#include "popops/TopKRows.hpp"

#include "common/CycleEstimates.hpp"
#include "popops/PopopsCodelets.hpp"
#include "tilescope/sim/BuiltinVertex.hpp"

#include <algorithm>
#include <numeric>
#include <poplar/exceptions.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>
#include <type_traits>

namespace popops::detail {

namespace pl = tilescope::poplibs;
using poplar::Tensor;
using tilescope::sim::abi::describeField;
using tilescope::sim::abi::FieldVisitor;

namespace {

/// The k largest (or smallest) values of each row of numColumns and their columns, in the
/// order `ascending` asks; equal values keep the lower column first.
template <typename T> class TopK : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<T>> in;
    poplar::Output<poplar::Vector<T>> value;
    poplar::Output<poplar::Vector<unsigned>> index;
    unsigned numColumns = 1;
    unsigned k = 1;
    unsigned largest = 1;   // unsigned, as vertex state: 1 picks the largest values
    unsigned ascending = 0; // 1 outputs smallest first

    bool compute() {
        using C = std::conditional_t<std::is_same_v<T, poplar::half>, float, T>;
        std::vector<unsigned> order(numColumns);
        const std::size_t rows = index.size() / k;
        for (std::size_t row = 0; row < rows; ++row) {
            const std::size_t base = row * numColumns;
            auto at = [&](unsigned c) { return static_cast<C>(in[base + c]); };
            // Picks by "more wanted first", ties to the lower column.
            auto wanted = [&](unsigned a, unsigned b) {
                const C x = at(a), y = at(b);
                return (largest != 0 ? x > y : x < y) || (x == y && a < b);
            };
            std::iota(order.begin(), order.end(), 0u);
            std::partial_sort(order.begin(), order.begin() + k, order.end(), wanted);
            if ((ascending != 0) ==
                (largest != 0)) // the output order is the reverse of the picking order
                std::sort(order.begin(), order.begin() + k, [&](unsigned a, unsigned b) {
                    const C x = at(a), y = at(b);
                    return (ascending != 0 ? x < y : x > y) || (x == y && a < b);
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
        describeField(f, "largest", v.largest);
        describeField(f, "ascending", v.ascending);
    }
};

/// out[row * k + j] = in[row * numColumns + index[row * k + j]].
template <typename T> class GatherRows : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<T>> in;
    poplar::Input<poplar::Vector<unsigned>> index;
    poplar::Output<poplar::Vector<T>> out;
    unsigned numColumns = 1;
    unsigned k = 1;

    bool compute() {
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = in[(i / k) * numColumns + index[i]];
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<GatherRows*>(o);
        describeField(f, "in", v.in);
        describeField(f, "index", v.index);
        describeField(f, "out", v.out);
        describeField(f, "numColumns", v.numColumns);
        describeField(f, "k", v.k);
    }
};

template <typename T> void registerFor(poplar::Graph& graph) {
    const poplar::Type type = poplar::equivalent_device_type<T>().value;
    tilescope::sim::registerBuiltinVertex<TopK<T>>(
        graph, poputil::templateVertex("popops::TopK", type), &TopK<T>::visit);
    tilescope::sim::registerBuiltinVertex<GatherRows<T>>(
        graph, poputil::templateVertex("popops::GatherRows", type), &GatherRows<T>::visit);
}

void checkType(const Tensor& t, const std::string& api) {
    const auto type = t.elementType();
    if (type != poplar::FLOAT && type != poplar::HALF && type != poplar::INT &&
        type != poplar::UNSIGNED_INT)
        throw poputil::poplibs_error(api + ": tensor '" + t.getName() + "' has type " +
                                     type.toString() +
                                     "; FLOAT, HALF, INT and UNSIGNED_INT are supported");
}

/// A {rows} handle mapped linearly, with `outs` ({rows, k} each) mapped row for row with it: the
/// rows are the unit of work.
Tensor mapRows(poplar::Graph& graph, std::size_t rows, const std::vector<Tensor>& outs,
               pl::PoplibsOpDebugInfo& di) {
    Tensor rowHandle = graph.addVariable(poplar::UNSIGNED_INT, {rows}, {di, "rows"});
    poputil::mapTensorLinearly(graph, rowHandle);
    const auto rowMapping = graph.getTileMapping(rowHandle);
    for (unsigned tile = 0; tile < rowMapping.size(); ++tile)
        for (const auto& r : rowMapping[tile])
            for (const Tensor& out : outs)
                graph.setTileMapping(out.slice(r.begin(), r.end()), tile);
    return rowHandle;
}

} // namespace

void registerTopKVertices(poplar::Graph& graph) {
    registerFor<float>(graph);
    registerFor<poplar::half>(graph);
    registerFor<int>(graph);
    registerFor<unsigned>(graph);
}

Tensor topKRows(poplar::Graph& graph, poplar::program::Sequence& prog, const Tensor& input,
                unsigned k, TopKRowsOrder order, Tensor& indices, pl::PoplibsOpDebugInfo& di,
                const std::string& api) {
    if (input.rank() != 2 || input.dim(0) == 0 || k == 0 || k > input.dim(1))
        throw poputil::poplibs_error(
            api + ": input '" + input.getName() + "' of shape " + input.shapeToString() +
            " needs 1 <= k <= its innermost dimension, k = " + std::to_string(k));
    checkType(input, api);
    const auto type = input.elementType();
    const std::size_t rows = input.dim(0), columns = input.dim(1);
    indices = graph.addVariable(poplar::UNSIGNED_INT, {rows, k}, {di, "indices"});
    Tensor values = graph.addVariable(type, {rows, k}, {di, "values"});
    Tensor rowHandle = mapRows(graph, rows, {indices, values}, di);
    poplar::ComputeSet cs = graph.addComputeSet({di, "topK"});
    pl::addElementWiseVertices(
        graph, cs, poputil::templateVertex("popops::TopK", type), rowHandle,
        {{"in", input}, {"value", values}, {"index", indices}},
        [&](std::size_t n) {
            // A partial sort: about log2(k) compares per column.
            std::size_t log2K = 1;
            while ((std::size_t(1) << log2K) < k)
                ++log2K;
            return pl::cycles::rowScan(n, columns * log2K);
        },
        [&](poplar::VertexRef v) {
            graph.setInitialValue(v["numColumns"], static_cast<unsigned>(columns));
            graph.setInitialValue(v["k"], k);
            graph.setInitialValue(v["largest"], order.largest ? 1u : 0u);
            graph.setInitialValue(v["ascending"], order.ascending ? 1u : 0u);
        });
    prog.add(poplar::program::Execute(cs, {di}));
    return values;
}

Tensor gatherRows(poplar::Graph& graph, poplar::program::Sequence& prog, const Tensor& in,
                  const Tensor& indices, pl::PoplibsOpDebugInfo& di, const std::string& api) {
    checkType(in, api);
    const std::size_t rows = indices.dim(0), k = indices.dim(1), columns = in.dim(1);
    Tensor out = graph.addVariable(in.elementType(), {rows, k}, {di, "permuted"});
    Tensor rowHandle = mapRows(graph, rows, {out}, di);
    poplar::ComputeSet cs = graph.addComputeSet({di, "gather"});
    pl::addElementWiseVertices(
        graph, cs, poputil::templateVertex("popops::GatherRows", in.elementType()), rowHandle,
        {{"in", in}, {"index", indices}, {"out", out}},
        [&](std::size_t n) { return pl::cycles::rowScan(n, k); },
        [&](poplar::VertexRef v) {
            graph.setInitialValue(v["numColumns"], static_cast<unsigned>(columns));
            graph.setInitialValue(v["k"], static_cast<unsigned>(k));
        });
    prog.add(poplar::program::Execute(cs, {di}));
    return out;
}

} // namespace popops::detail
