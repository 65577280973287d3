// popops::reduce and popops::reduceWithOutput, and the reduction vertex.
//
// The input is viewed as [outputs, partialsPerOutput] (kept dimensions first, reduced ones
// last); each output element is reduced on the tile that holds it, from partials that the
// exchange brings there. HALF inputs accumulate in float.

#include "popops/Reduction.hpp"

#include "common/CycleEstimates.hpp"
#include "common/ElementWiseBuilder.hpp"
#include "popops/ElementWiseVertices.hpp"
#include "popops/PopopsCodelets.hpp"
#include "tilescope/sim/BuiltinVertex.hpp"

#include <algorithm>
#include <limits>
#include <poplar/exceptions.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>

namespace popops {

namespace pl = tilescope::poplibs;
using tilescope::sim::abi::describeField;
using tilescope::sim::abi::FieldVisitor;

namespace {

const char* operationName(Operation op) {
    switch (op) {
    case Operation::ADD:
        return "ADD";
    case Operation::MUL:
        return "MUL";
    case Operation::MIN:
        return "MIN";
    case Operation::MAX:
        return "MAX";
    case Operation::SQUARE_ADD:
        return "SQUARE_ADD";
    }
    return "?";
}

/// out[i] = (update ? out[i] : identity) op reduction of partials[i*numPartials, ...).
template <Operation Op, typename In, typename Out> class Reduce : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<In>> partials;
    // An Output even when updating: the old value is read back from the same memory, and the
    // common non-updating case must not make the output live before the reduction.
    poplar::Output<poplar::Vector<Out>> out;
    unsigned numPartials = 1;
    bool update = false;

    using Acc = std::conditional_t<std::is_integral_v<In>, long long, float>;
    static Acc identity() {
        if constexpr (Op == Operation::MUL)
            return Acc(1);
        else if constexpr (Op == Operation::MIN)
            return std::numeric_limits<Acc>::has_infinity ? std::numeric_limits<Acc>::infinity()
                                                          : std::numeric_limits<Acc>::max();
        else if constexpr (Op == Operation::MAX)
            return std::numeric_limits<Acc>::has_infinity ? -std::numeric_limits<Acc>::infinity()
                                                          : std::numeric_limits<Acc>::lowest();
        else
            return Acc(0);
    }
    static Acc combine(Acc acc, Acc x) {
        if constexpr (Op == Operation::MUL)
            return acc * x;
        else if constexpr (Op == Operation::MIN)
            return std::min(acc, x);
        else if constexpr (Op == Operation::MAX)
            return std::max(acc, x);
        else if constexpr (Op == Operation::SQUARE_ADD)
            return acc + x * x;
        else
            return acc + x;
    }
    bool compute() {
        for (std::size_t i = 0; i < out.size(); ++i) {
            Acc acc = identity();
            for (std::size_t p = 0; p < numPartials; ++p)
                acc =
                    combine(acc, static_cast<Acc>(static_cast<pl::popops_vertices::ComputeType<In>>(
                                     partials[i * numPartials + p])));
            if (update) {
                // Updating combines with the existing output (SQUARE_ADD adds: the output
                // already holds a sum of squares).
                const Acc old = static_cast<Acc>(
                    static_cast<pl::popops_vertices::ComputeType<Out>>(Out(out[i])));
                acc = Op == Operation::SQUARE_ADD ? old + acc : combine(old, acc);
            }
            out[i] = static_cast<Out>(static_cast<pl::popops_vertices::ComputeType<Out>>(acc));
        }
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<Reduce*>(o);
        describeField(f, "partials", v.partials);
        describeField(f, "out", v.out);
        describeField(f, "numPartials", v.numPartials);
        describeField(f, "update", v.update);
    }
};

template <typename T> poplar::Type typeOf() {
    return poplar::equivalent_device_type<T>().value;
}

std::string vertexName(Operation op, const poplar::Type& in, const poplar::Type& out) {
    return poputil::templateVertex("popops::Reduce",
                                   std::string("popops::Operation::") + operationName(op), in, out);
}

template <Operation Op, typename In, typename Out> void registerOne(poplar::Graph& graph) {
    tilescope::sim::registerBuiltinVertex<Reduce<Op, In, Out>>(
        graph, vertexName(Op, typeOf<In>(), typeOf<Out>()), &Reduce<Op, In, Out>::visit);
}

template <Operation Op> void registerOperation(poplar::Graph& graph) {
    registerOne<Op, float, float>(graph);
    registerOne<Op, float, poplar::half>(graph);
    registerOne<Op, poplar::half, poplar::half>(graph);
    registerOne<Op, poplar::half, float>(graph);
    registerOne<Op, int, int>(graph);
}

bool supportedPair(const poplar::Type& in, const poplar::Type& out) {
    const bool floating = [](const poplar::Type& t) {
        return t == poplar::FLOAT || t == poplar::HALF;
    }(in);
    const bool outFloating = out == poplar::FLOAT || out == poplar::HALF;
    return (floating && outFloating) || (in == poplar::INT && out == poplar::INT);
}

/// The shape of `in` without `dims`; throws for a dimension out of range or repeated.
std::vector<std::size_t> reducedShape(const std::string& api, const poplar::Tensor& in,
                                      const std::vector<std::size_t>& dims) {
    std::vector<bool> reduced(in.rank(), false);
    for (auto d : dims) {
        if (d >= in.rank())
            throw poplar::poplar_error(api + ": dimension " + std::to_string(d) +
                                       " is out of range for tensor '" + in.getName() +
                                       "' of shape " + in.shapeToString());
        if (reduced[d])
            throw poplar::poplar_error(api + ": dimension " + std::to_string(d) +
                                       " is listed twice for tensor '" + in.getName() + "'");
        reduced[d] = true;
    }
    std::vector<std::size_t> out;
    for (unsigned d = 0; d < in.rank(); ++d)
        if (!reduced[d])
            out.push_back(in.dim(d));
    return out;
}

/// `in` viewed as [outputs, partialsPerOutput]: kept dimensions first, reduced ones last.
poplar::Tensor partialsView(const poplar::Tensor& in, const std::vector<std::size_t>& dims) {
    std::vector<unsigned> order, reduced;
    std::vector<bool> isReduced(in.rank(), false);
    for (auto d : dims)
        isReduced[d] = true;
    std::size_t partialsPerOutput = 1;
    for (unsigned d = 0; d < in.rank(); ++d) {
        if (isReduced[d]) {
            reduced.push_back(d);
            partialsPerOutput *= in.dim(d);
        } else {
            order.push_back(d);
        }
    }
    order.insert(order.end(), reduced.begin(), reduced.end());
    const std::size_t outputs = in.numElements() / std::max<std::size_t>(partialsPerOutput, 1);
    return in.dimShuffle(order).reshape({outputs, partialsPerOutput});
}

/// Maps each element of a new output to the tile holding most of its partials, so each output
/// is reduced where its inputs already are. A linear mapping would put every row of a small
/// output on the first few tiles and exchange the whole input there. Falls back to a linear
/// mapping when the input is not completely mapped.
void mapOutputByPartials(poplar::Graph& graph, const poplar::Tensor& in,
                         const std::vector<std::size_t>& dims, const poplar::Tensor& out) {
    const std::size_t outputs = out.numElements();
    if (outputs == 0 || in.numElements() == 0) {
        poputil::mapTensorLinearly(graph, out);
        return;
    }
    const poplar::Tensor partials = partialsView(in, dims);
    const std::size_t per = partials.dim(1);
    const auto mapping = graph.getTileMapping(partials, false);
    std::vector<std::size_t> bestCount(outputs, 0), count(outputs, 0);
    std::vector<unsigned> bestTile(outputs, 0);
    std::vector<std::size_t> touched;
    std::size_t covered = 0;
    for (unsigned tile = 0; tile < mapping.size(); ++tile) {
        touched.clear();
        for (const auto& i : mapping[tile]) {
            covered += i.size();
            for (std::size_t row = i.begin() / per; row * per < i.end(); ++row) {
                const std::size_t lo = std::max(i.begin(), row * per);
                const std::size_t hi = std::min(i.end(), (row + 1) * per);
                if (count[row] == 0)
                    touched.push_back(row);
                count[row] += hi - lo;
            }
        }
        for (auto row : touched) {
            if (count[row] > bestCount[row]) {
                bestCount[row] = count[row];
                bestTile[row] = tile;
            }
            count[row] = 0;
        }
    }
    if (covered != partials.numElements()) {
        poputil::mapTensorLinearly(graph, out);
        return;
    }
    const poplar::Tensor flat = out.flatten();
    std::size_t begin = 0;
    for (std::size_t row = 1; row <= outputs; ++row)
        if (row == outputs || bestTile[row] != bestTile[begin]) {
            graph.setTileMapping(flat.slice(begin, row), bestTile[begin]);
            begin = row;
        }
}

void reduceInto(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Tensor& out,
                const std::vector<std::size_t>& dims, ReduceParams params,
                poplar::program::Sequence& prog, pl::PoplibsOpDebugInfo& di,
                const std::string& api) {
    if (!supportedPair(in.elementType(), out.elementType()))
        throw poplar::poplar_error(api + ": cannot reduce tensor '" + in.getName() + "' of type " +
                                   in.elementType().toString() + " into type " +
                                   out.elementType().toString() +
                                   " (FLOAT and HALF either way, or INT to INT)");
    const poplar::Tensor partials = partialsView(in, dims);
    const std::size_t partialsPerOutput = partials.dim(1);
    const std::size_t outputs = out.numElements();
    if (outputs == 0 || partialsPerOutput == 0)
        throw poplar::poplar_error(api + ": tensor '" + in.getName() + "' of shape " +
                                   in.shapeToString() + " gives an empty reduction");

    const poplar::Type inType = in.elementType();
    poplar::ComputeSet cs = graph.addComputeSet({di, "reduce"});
    const auto& target = graph.getTarget();
    pl::addElementWiseVertices(
        graph, cs, vertexName(params.op, inType, out.elementType()), out,
        {{"partials", partials}, {"out", out}},
        [&](std::size_t n) { return pl::cycles::reduce(target, inType, n, partialsPerOutput); },
        [&](poplar::VertexRef v) {
            graph.setInitialValue(v["numPartials"], static_cast<unsigned>(partialsPerOutput));
            graph.setInitialValue(v["update"], params.update);
        });
    prog.add(poplar::program::Execute(cs, {di}));
    if (inType != poplar::INT)
        di.addFlops((params.op == Operation::SQUARE_ADD ? 2 : 1) * outputs * partialsPerOutput);
}

} // namespace

namespace detail {
void registerReduceVertices(poplar::Graph& graph) {
    registerOperation<Operation::ADD>(graph);
    registerOperation<Operation::MUL>(graph);
    registerOperation<Operation::MIN>(graph);
    registerOperation<Operation::MAX>(graph);
    registerOperation<Operation::SQUARE_ADD>(graph);
}
} // namespace detail

poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Type& outType,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                      const poplar::OptionFlags&) {
    pl::PoplibsOpDebugInfo di(debugContext, "reduce");
    di.setValue("operation", operationName(params.op));
    if (params.update)
        throw poplar::poplar_error("popops::reduce: ReduceParams::update needs an existing "
                                   "output; use reduceWithOutput for tensor '" +
                                   in.getName() + "'");
    auto shape = reducedShape("popops::reduce", in, dims);
    poplar::Tensor out = graph.addVariable(outType, shape, {di, "out"});
    mapOutputByPartials(graph, in, dims, out);
    reduceInto(graph, in, out, dims, params, prog, di, "popops::reduce");
    return out;
}

poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                      const poplar::OptionFlags& options) {
    return reduce(graph, in, in.elementType(), dims, params, prog, debugContext, options);
}

void reduceWithOutput(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Tensor& out,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                      const poplar::OptionFlags&) {
    pl::PoplibsOpDebugInfo di(debugContext, "reduceWithOutput");
    di.setValue("operation", operationName(params.op));
    const auto shape = reducedShape("popops::reduceWithOutput", in, dims);
    std::size_t n = 1;
    for (auto d : shape)
        n *= d;
    if (out.numElements() != n)
        throw poplar::poplar_error("popops::reduceWithOutput: output '" + out.getName() +
                                   "' of shape " + out.shapeToString() + " must have shape " +
                                   pl::shapeString(shape) + " (tensor '" + in.getName() +
                                   "' of shape " + in.shapeToString() + " without dimensions " +
                                   "reduced)");
    reduceInto(graph, in, out, dims, params, prog, di, "popops::reduceWithOutput");
}

} // namespace popops
