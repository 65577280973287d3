// popops::reduce and popops::reduceWithOutput, and the reduction vertex.
//
// The input is viewed as [outputs, partialsPerOutput] (kept dimensions first, reduced ones
// last); each output element is reduced on the tile that holds it, from partials that the
// exchange brings there. HALF inputs accumulate in float.

#include "popops/Reduction.hpp"

#include "common/CycleEstimates.hpp"
#include "common/ElementWiseBuilder.hpp"
#include "popops/ElementWiseVertices.hpp"
#include "popops/Operation.hpp"
#include "popops/PopopsCodelets.hpp"
#include "popops/ReductionStages.hpp"
#include "tilescope/sim/BuiltinVertex.hpp"

#include <algorithm>
#include <cmath>
#include <istream>
#include <limits>
#include <ostream>
#include <poplar/exceptions.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

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
    case Operation::LOGICAL_AND:
        return "LOGICAL_AND";
    case Operation::LOGICAL_OR:
        return "LOGICAL_OR";
    case Operation::SQUARE_ADD:
        return "SQUARE_ADD";
    case Operation::LOG_ADD:
        return "LOG_ADD";
    }
    return "?";
}

/// The arithmetic of one reduction: accumulator type, identity and combining step. Integers and
/// BOOL accumulate in long long, floating types in float (HALF too, as the device does).
template <Operation Op, typename In> struct ReduceArithmetic {
    using Acc = std::conditional_t<std::is_integral_v<In>, long long, float>;
    static Acc identity() {
        if constexpr (Op == Operation::MUL || Op == Operation::LOGICAL_AND)
            return Acc(1);
        else if constexpr (Op == Operation::MIN)
            return std::numeric_limits<Acc>::has_infinity ? std::numeric_limits<Acc>::infinity()
                                                          : std::numeric_limits<Acc>::max();
        else if constexpr (Op == Operation::MAX || Op == Operation::LOG_ADD)
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
        else if constexpr (Op == Operation::LOGICAL_AND)
            return acc != 0 && x != 0;
        else if constexpr (Op == Operation::LOGICAL_OR)
            return acc != 0 || x != 0;
        else if constexpr (Op == Operation::SQUARE_ADD)
            return acc + x * x;
        else if constexpr (Op == Operation::LOG_ADD) {
            // log(exp(acc) + exp(x)), shifted by the larger so neither exponent overflows.
            const Acc hi = std::max(acc, x), lo = std::min(acc, x);
            if (hi == -std::numeric_limits<Acc>::infinity())
                return hi;
            return hi + std::log1p(std::exp(lo - hi));
        } else
            return acc + x;
    }
    /// Reduces each row of numPartials partials into out, times `scale`; with `update` the
    /// result is combined with the old output (added, for SQUARE_ADD: it holds a sum of squares).
    template <typename Partials, typename Outs>
    static void run(const Partials& partials, Outs& out, std::size_t numPartials, bool update,
                    Acc scale, bool useScale) {
        using OutT = std::decay_t<decltype(out[0])>;
        using pl::popops_vertices::ComputeType;
        for (std::size_t i = 0; i < out.size(); ++i) {
            Acc acc = identity();
            for (std::size_t p = 0; p < numPartials; ++p)
                acc = combine(acc, static_cast<Acc>(static_cast<ComputeType<In>>(
                                       partials[i * numPartials + p])));
            if (useScale)
                acc *= scale;
            if (update) {
                const Acc old = static_cast<Acc>(static_cast<ComputeType<OutT>>(OutT(out[i])));
                acc = Op == Operation::SQUARE_ADD ? old + acc : combine(old, acc);
            }
            out[i] = static_cast<OutT>(static_cast<ComputeType<OutT>>(acc));
        }
    }
};

/// out[i] = (update ? out[i] : identity) op reduction of partials[i*numPartials, ...).
template <Operation Op, typename In, typename Out> class Reduce : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<In>> partials;
    // An Output even when updating: the old value is read back from the same memory, and the
    // common non-updating case must not make the output live before the reduction.
    poplar::Output<poplar::Vector<Out>> out;
    unsigned numPartials = 1;
    bool update = false;

    bool compute() {
        ReduceArithmetic<Op, In>::run(partials, out, numPartials, update, 1, false);
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

/// As Reduce, multiplying the result by the scalar `scale` (ReduceParams::scale).
template <Operation Op, typename In, typename Out, typename ScaleT>
class ScaledReduce : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<In>> partials;
    poplar::Output<poplar::Vector<Out>> out;
    poplar::Input<ScaleT> scale;
    unsigned numPartials = 1;
    bool update = false;

    bool compute() {
        ReduceArithmetic<Op, In>::run(partials, out, numPartials, update,
                                      static_cast<float>(ScaleT(scale)), true);
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<ScaledReduce*>(o);
        describeField(f, "partials", v.partials);
        describeField(f, "out", v.out);
        describeField(f, "scale", v.scale);
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
std::string scaledVertexName(Operation op, const poplar::Type& in, const poplar::Type& out,
                             const poplar::Type& scale) {
    return poputil::templateVertex("popops::ScaledReduce",
                                   std::string("popops::Operation::") + operationName(op), in, out,
                                   scale);
}

template <Operation Op, typename In, typename Out> void registerOne(poplar::Graph& graph) {
    tilescope::sim::registerBuiltinVertex<Reduce<Op, In, Out>>(
        graph, vertexName(Op, typeOf<In>(), typeOf<Out>()), &Reduce<Op, In, Out>::visit);
    if constexpr ((Op == Operation::ADD || Op == Operation::SQUARE_ADD) &&
                  !std::is_integral_v<In>) {
        using F = ScaledReduce<Op, In, Out, float>;
        using H = ScaledReduce<Op, In, Out, poplar::half>;
        tilescope::sim::registerBuiltinVertex<F>(
            graph, scaledVertexName(Op, typeOf<In>(), typeOf<Out>(), poplar::FLOAT), &F::visit);
        tilescope::sim::registerBuiltinVertex<H>(
            graph, scaledVertexName(Op, typeOf<In>(), typeOf<Out>(), poplar::HALF), &H::visit);
    }
}

template <Operation Op> void registerOperation(poplar::Graph& graph) {
    registerOne<Op, float, float>(graph);
    registerOne<Op, float, poplar::half>(graph);
    registerOne<Op, poplar::half, poplar::half>(graph);
    registerOne<Op, poplar::half, float>(graph);
    registerOne<Op, int, int>(graph);
    registerOne<Op, unsigned, unsigned>(graph);
}

bool isLogical(Operation op) {
    return op == Operation::LOGICAL_AND || op == Operation::LOGICAL_OR;
}

/// The input and output types each operation supports (the SDK's list, with UNSIGNED_INT like
/// INT): floating either way or an integer type to itself; BOOL to BOOL for the logical ones.
bool supportedPair(Operation op, const poplar::Type& in, const poplar::Type& out) {
    if (isLogical(op))
        return in == poplar::BOOL && out == poplar::BOOL;
    if (op == Operation::LOG_ADD)
        return (in == poplar::FLOAT || in == poplar::HALF) &&
               (out == poplar::FLOAT || out == poplar::HALF);
    const auto floating = [](const poplar::Type& t) {
        return t == poplar::FLOAT || t == poplar::HALF;
    };
    return (floating(in) && floating(out)) ||
           ((in == poplar::INT || in == poplar::UNSIGNED_INT) && out == in);
}

/// The shape of `in` without `dims`; throws for a dimension out of range or repeated.
std::vector<std::size_t> reducedShape(const std::string& api, const poplar::Tensor& in,
                                      const std::vector<std::size_t>& dims) {
    std::vector<bool> reduced(in.rank(), false);
    for (auto d : dims) {
        if (d >= in.rank())
            throw poputil::poplibs_error(api + ": dimension " + std::to_string(d) +
                                         " is out of range for tensor '" + in.getName() +
                                         "' of shape " + in.shapeToString());
        if (reduced[d])
            throw poputil::poplibs_error(api + ": dimension " + std::to_string(d) +
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

/// Adds the two-stage form of the reduction of `partials` into `out` when it is needed (see
/// ReductionStages.hpp); the first stage applies the operation (SQUARE_ADD squares there), the
/// second combines per-tile values, then updates and scales.
bool stageReduction(poplar::Graph& graph, const poplar::Tensor& partials, const poplar::Tensor& out,
                    const ReduceParams& params, pl::PoplibsOpDebugInfo& di,
                    std::vector<poplar::ComputeSet>& css) {
    const poplar::Type inType = partials.elementType();
    detail::ReductionStageVertices v;
    v.intermediateType = inType == poplar::HALF ? poplar::FLOAT : inType; // as the vertex sums
    v.firstStage = vertexName(params.op, inType, v.intermediateType);
    const Operation combine = params.op == Operation::SQUARE_ADD ? Operation::ADD : params.op;
    v.secondStage = params.useScale
                        ? scaledVertexName(combine, v.intermediateType, out.elementType(),
                                           params.scale.elementType())
                        : vertexName(combine, v.intermediateType, out.elementType());
    v.intermediateStage = vertexName(combine, v.intermediateType, v.intermediateType);
    v.update = params.update;
    if (params.useScale)
        v.scale = params.scale.reshape({});
    const auto& target = graph.getTarget();
    const bool logAdd = params.op == Operation::LOG_ADD;
    v.cycles = [&target, logAdd](const poplar::Type& type, std::size_t outputs, std::size_t n,
                                 bool update) {
        return pl::cycles::reduceContinuous(target, type, outputs, n, update, logAdd);
    };
    return detail::addStagedReduction(graph, partials, out, v, di, css);
}

/// The compute sets reducing `in` over `dims` into `out` (not yet executed): one, or two when
/// outputs would receive many partials from other tiles (ReductionStages.hpp).
std::vector<poplar::ComputeSet> reduceInto(poplar::Graph& graph, const poplar::Tensor& in,
                                           const poplar::Tensor& out,
                                           const std::vector<std::size_t>& dims,
                                           const ReduceParams& params, pl::PoplibsOpDebugInfo& di,
                                           const std::string& api) {
    if (!supportedPair(params.op, in.elementType(), out.elementType()))
        throw poputil::poplibs_error(
            api + ": cannot reduce tensor '" + in.getName() + "' of type " +
            in.elementType().toString() + " into type " + out.elementType().toString() + " with " +
            operationName(params.op) +
            (isLogical(params.op)              ? " (BOOL to BOOL only)"
             : params.op == Operation::LOG_ADD ? " (FLOAT and HALF only)"
                                               : " (FLOAT and HALF either way, or INT and "
                                                 "UNSIGNED_INT to the same type)"));
    if (params.useScale) {
        if (params.op != Operation::ADD && params.op != Operation::SQUARE_ADD)
            throw poputil::poplibs_error(api +
                                         ": ReduceParams::scale applies to ADD and "
                                         "SQUARE_ADD only, not " +
                                         std::string(operationName(params.op)));
        const auto scaleType = params.scale.elementType();
        if (params.scale.numElements() != 1 ||
            (scaleType != poplar::FLOAT && scaleType != poplar::HALF))
            throw poputil::poplibs_error(api + ": scale tensor '" + params.scale.getName() +
                                         "' must be a single FLOAT or HALF element, got " +
                                         scaleType.toString() + " " + params.scale.shapeToString());
        if (in.elementType() != poplar::FLOAT && in.elementType() != poplar::HALF)
            throw poputil::poplibs_error(api +
                                         ": ReduceParams::scale needs a FLOAT or HALF input, "
                                         "not tensor '" +
                                         in.getName() + "' of type " + in.elementType().toString());
    }
    const poplar::Tensor partials = partialsView(in, dims);
    const std::size_t partialsPerOutput = partials.dim(1);
    const std::size_t outputs = out.numElements();
    if (outputs == 0 || partialsPerOutput == 0)
        throw poputil::poplibs_error(api + ": tensor '" + in.getName() + "' of shape " +
                                     in.shapeToString() + " gives an empty reduction");

    const poplar::Type inType = in.elementType();
    const auto& target = graph.getTarget();
    if (inType == poplar::FLOAT || inType == poplar::HALF)
        di.addFlops((params.op == Operation::SQUARE_ADD ? 2 : 1) * outputs * partialsPerOutput);
    std::vector<poplar::ComputeSet> css;
    if (stageReduction(graph, partials, out, params, di, css))
        return css;
    poplar::ComputeSet cs = graph.addComputeSet({di, "reduce"});
    const std::string vertexType =
        params.useScale
            ? scaledVertexName(params.op, inType, out.elementType(), params.scale.elementType())
            : vertexName(params.op, inType, out.elementType());
    const poplar::Tensor scale = params.useScale ? params.scale.reshape({}) : poplar::Tensor();
    // Reducing the innermost dimensions reads each output's partials contiguously (PopLibs'
    // ReduceAllRegionsContinuous); reducing outer ones reads them `stride` elements apart with
    // the partials of neighbouring outputs adjacent (PopLibs' strided reduction).
    const std::size_t firstReduced =
        dims.empty() ? in.rank() : *std::min_element(dims.begin(), dims.end());
    std::size_t stride = 1;
    bool continuous = true;
    for (std::size_t d = firstReduced + 1; d < in.rank(); ++d)
        if (std::find(dims.begin(), dims.end(), d) == dims.end()) {
            continuous = false;
            stride *= in.dim(d);
        }
    const auto opClass = params.op == Operation::ADD ? pl::cycles::ReduceOpClass::Add
                         : params.op == Operation::MAX || params.op == Operation::MIN
                             ? pl::cycles::ReduceOpClass::MaxMin
                         : params.op == Operation::LOG_ADD ? pl::cycles::ReduceOpClass::LogAdd
                                                           : pl::cycles::ReduceOpClass::Other;
    pl::addElementWiseVertices(
        graph, cs, vertexType, out, {{"partials", partials}, {"out", out}},
        [&](std::size_t n) {
            if (continuous)
                return pl::cycles::reduceContinuous(target, inType, n, partialsPerOutput,
                                                    params.update, params.op == Operation::LOG_ADD);
            return pl::cycles::reduceStrided(target, inType, out.elementType(), opClass, n,
                                             partialsPerOutput, stride, params.update);
        },
        [&](poplar::VertexRef v) {
            graph.setInitialValue(v["numPartials"], static_cast<unsigned>(partialsPerOutput));
            graph.setInitialValue(v["update"], params.update);
            if (params.useScale)
                graph.connect(v["scale"], scale);
        });
    css.push_back(cs);
    return css;
}

/// A new output for reducing `in` over `dims`, mapped where its partials live.
poplar::Tensor createReduceOutput(poplar::Graph& graph, const poplar::Tensor& in,
                                  const poplar::Type& outType, const std::vector<std::size_t>& dims,
                                  const ReduceParams& params, pl::PoplibsOpDebugInfo& di) {
    if (params.update)
        throw poputil::poplibs_error("popops::reduce: ReduceParams::update needs an existing "
                                     "output; use reduceWithOutput for tensor '" +
                                     in.getName() + "'");
    auto shape = reducedShape("popops::reduce", in, dims);
    poplar::Tensor out = graph.addVariable(outType, shape, {di, "out"});
    mapOutputByPartials(graph, in, dims, out);
    return out;
}

/// Checks that `out` has `in`'s shape without `dims`.
void checkReduceOutput(const poplar::Tensor& in, const poplar::Tensor& out,
                       const std::vector<std::size_t>& dims) {
    const auto shape = reducedShape("popops::reduceWithOutput", in, dims);
    std::size_t n = 1;
    for (auto d : shape)
        n *= d;
    if (out.numElements() != n)
        throw poputil::poplibs_error("popops::reduceWithOutput: output '" + out.getName() +
                                     "' of shape " + out.shapeToString() + " must have shape " +
                                     pl::shapeString(shape) + " (tensor '" + in.getName() +
                                     "' of shape " + in.shapeToString() + " without dimensions " +
                                     "reduced)");
}

} // namespace

namespace detail {
void registerReduceVertices(poplar::Graph& graph) {
    registerOperation<Operation::ADD>(graph);
    registerOperation<Operation::MUL>(graph);
    registerOperation<Operation::MIN>(graph);
    registerOperation<Operation::MAX>(graph);
    registerOperation<Operation::SQUARE_ADD>(graph);
    registerOne<Operation::LOG_ADD, float, float>(graph);
    registerOne<Operation::LOG_ADD, float, poplar::half>(graph);
    registerOne<Operation::LOG_ADD, poplar::half, poplar::half>(graph);
    registerOne<Operation::LOG_ADD, poplar::half, float>(graph);
    registerOne<Operation::LOGICAL_AND, bool, bool>(graph);
    registerOne<Operation::LOGICAL_OR, bool, bool>(graph);
}
} // namespace detail

poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Type& outType,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                      const poplar::OptionFlags&) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(in, outType, dims), "reduce");
    di.setValue("operation", operationName(params.op));
    poplar::Tensor out = createReduceOutput(graph, in, outType, dims, params, di);
    for (const auto& cs : reduceInto(graph, in, out, dims, params, di, "popops::reduce"))
        prog.add(poplar::program::Execute(cs, {di}));
    di.addOutput(out);
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
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(in, out, dims), "reduceWithOutput");
    di.setValue("operation", operationName(params.op));
    checkReduceOutput(in, out, dims);
    for (const auto& cs : reduceInto(graph, in, out, dims, params, di, "popops::reduceWithOutput"))
        prog.add(poplar::program::Execute(cs, {di}));
}

poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Type& outType,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      std::vector<poplar::ComputeSet>& css,
                      const poplar::DebugContext& debugContext, const poplar::OptionFlags&) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(in, outType, dims), "reduce");
    di.setValue("operation", operationName(params.op));
    poplar::Tensor out = createReduceOutput(graph, in, outType, dims, params, di);
    for (const auto& cs : reduceInto(graph, in, out, dims, params, di, "popops::reduce"))
        css.push_back(cs);
    di.addOutput(out);
    return out;
}

poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      std::vector<poplar::ComputeSet>& css,
                      const poplar::DebugContext& debugContext,
                      const poplar::OptionFlags& options) {
    return reduce(graph, in, in.elementType(), dims, params, css, debugContext, options);
}

void reduceWithOutput(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Tensor& out,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      std::vector<poplar::ComputeSet>& css,
                      const poplar::DebugContext& debugContext, const poplar::OptionFlags&) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(in, out, dims), "reduceWithOutput");
    di.setValue("operation", operationName(params.op));
    checkReduceOutput(in, out, dims);
    for (const auto& cs : reduceInto(graph, in, out, dims, params, di, "popops::reduceWithOutput"))
        css.push_back(cs);
}

std::ostream& operator<<(std::ostream& os, const Operation& op) {
    return os << operationName(op);
}

std::istream& operator>>(std::istream& is, Operation& op) {
    std::string name;
    if (!(is >> name))
        return is;
    for (Operation candidate :
         {Operation::ADD, Operation::MUL, Operation::MIN, Operation::MAX, Operation::LOGICAL_AND,
          Operation::LOGICAL_OR, Operation::SQUARE_ADD})
        if (name == operationName(candidate)) {
            op = candidate;
            return is;
        }
    is.setstate(std::ios::failbit);
    return is;
}

} // namespace popops
