// poplin::matMul and the creation of its inputs: plans, blocks per tile, partials and reduction.

#include "poplin/MatMul.hpp"

#include "common/CycleEstimates.hpp"
#include "common/ElementWiseBuilder.hpp"
#include "common/OptionDefaults.hpp"
#include "poplin/ConvReduce.hpp"
#include "poplin/MatMulLayout.hpp"
#include "poplin/MatMulPlanner.hpp"
#include "poplin/MatMulVertex.hpp"
#include "poplin/PlanningCacheImpl.hpp"
#include "popops/Transpose2d.hpp"

#include <algorithm>
#include <map>
#include <poplar/exceptions.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>
#include <tuple>

namespace poplin {

namespace pl = tilescope::poplibs;
using pl::Range;
using pl::ranges;
using poplar::Tensor;

PlanningCache::PlanningCache() : impl_(std::make_unique<Impl>()) {}
PlanningCache::~PlanningCache() = default;

namespace {

struct MatMulOptions {
    double availableMemoryProportion = 0.6;
    poplar::Type partialsType = poplar::FLOAT;
};

MatMulOptions parseOptions(const poplar::OptionFlags& options) {
    MatMulOptions o;
    // TILESCOPE_POPLIBS_OPTIONS' "matmul" defaults under the program's own options.
    for (const auto& [name, value] : pl::withOptionDefaults("matmul", options)) {
        if (name == "availableMemoryProportion") {
            std::size_t used = 0;
            double p = 0;
            try {
                p = std::stod(value, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used != value.size() || !(p > 0.0 && p <= 1.0))
                throw poplar::invalid_option("poplin::matMul: option 'availableMemoryProportion'"
                                             " must be a number in (0, 1], got '" +
                                             value + "'");
            o.availableMemoryProportion = p;
        } else if (name == "partialsType") {
            if (value == "float")
                o.partialsType = poplar::FLOAT;
            else if (value == "half")
                o.partialsType = poplar::HALF;
            else
                throw poplar::invalid_option("poplin::matMul: option 'partialsType' must be "
                                             "'float' or 'half', got '" +
                                             value + "'");
        } else {
            throw poplar::invalid_option("poplin::matMul: unknown option '" + name +
                                         "' (known: availableMemoryProportion, partialsType)");
        }
    }
    return o;
}

void checkShapes(const std::string& api, const std::vector<std::size_t>& a,
                 const std::vector<std::size_t>& b) {
    if (a.size() != 2 || b.size() != 2 || a[1] != b[0] || a[0] == 0 || a[1] == 0 || b[1] == 0)
        throw poputil::poplibs_error(api + ": cannot multiply shapes " + pl::shapeString(a) +
                                     " and " + pl::shapeString(b) +
                                     " (need non-empty {M, K} x {K, N})");
}

void checkType(const std::string& api, const poplar::Type& t, const std::string& what) {
    if (t != poplar::FLOAT && t != poplar::HALF)
        throw poputil::poplibs_error(api + ": " + what + " has type " + t.toString() +
                                     "; FLOAT and HALF are supported");
}

pl::MatMulPlan getPlan(const poplar::Graph& graph, const poplar::Type& inputType,
                       const std::vector<std::size_t>& a, const std::vector<std::size_t>& b,
                       const MatMulOptions& o, PlanningCache* cache) {
    const auto key = std::make_tuple(
        static_cast<unsigned>(inputType.native()), static_cast<unsigned>(o.partialsType.native()),
        a[0], a[1], b[1], o.availableMemoryProportion, graph.getTarget().getNumTiles());
    if (cache)
        if (auto it = cache->impl().plans.find(key); it != cache->impl().plans.end())
            return it->second;
    auto plan = pl::planMatMul(graph.getTarget(), inputType, o.partialsType, a[0], a[1], b[1],
                               o.availableMemoryProportion);
    if (cache)
        cache->impl().plans.emplace(key, plan);
    return plan;
}

std::size_t ceilDiv(std::size_t a, std::size_t b) {
    return (a + b - 1) / b;
}

/// True when `X` (rank 2) is a transposed view: its columns, not its rows, are contiguous in
/// memory (K^T of attention, x^T of a weight gradient).
bool isTransposedView(const Tensor& X) {
    return X.dim(0) > 1 && X.dim(1) > 1 && !X[0].isContiguous() && X.transpose()[0].isContiguous();
}

/// `X`, a transposed view, rewritten into new row-major variables mapped exactly as X is: each
/// tile transposes the rectangles of the untransposed tensor it holds with Transpose2d vertices
/// in one "Transpose" compute set, before the product's exchange, as PopLibs regroups operands
/// on their tiles with transposes rather than moving them element by element. The exchange of
/// the product then reads contiguous rows from the same tiles; values are only moved, so results
/// are unchanged.
/// The widest source matrix one transpose is given (PopLibs' vertex holds sizes in 16 bits).
constexpr std::size_t kMaxTransposeColumns = 4096;

Tensor transposeWhereItLives(poplar::Graph& graph, const Tensor& X,
                             const std::vector<Range>& columnBlocks,
                             poplar::program::Sequence& prog, pl::PoplibsOpDebugInfo& di,
                             const std::string& name) {
    const Tensor src = X.transpose(); // rows contiguous in memory
    const std::size_t cols = src.dim(1);
    // One variable per column block of the product's plan: a block then reads whole rows of
    // what a tile holds, which are neighbours in memory (one exchange region, not one per row).
    std::vector<Tensor> parts;
    for (const auto& c : columnBlocks)
        parts.push_back(
            graph.addVariable(X.elementType(), {X.dim(0), c.end - c.begin}, {di, name}));
    const Tensor out = poplar::concat(parts, 1);
    poplar::ComputeSet cs = graph.addComputeSet({di, "Transpose"});
    const auto mapping = graph.getTileMapping(src);
    struct Rectangle {
        std::size_t r0, r1, c0, c1;
    };
    for (unsigned tile = 0; tile < mapping.size(); ++tile) {
        // The tile's row pieces of src; consecutive rows with the same columns form a rectangle.
        std::vector<Rectangle> rectangles;
        for (const auto& interval : mapping[tile])
            for (std::size_t i = interval.begin(); i < interval.end();) {
                const std::size_t r = i / cols, c0 = i % cols;
                const std::size_t c1 = std::min(cols, c0 + (interval.end() - i));
                auto* last = rectangles.empty() ? nullptr : &rectangles.back();
                if (last && last->r1 == r && last->c0 == c0 && last->c1 == c1)
                    ++last->r1;
                else
                    rectangles.push_back({r, r + 1, c0, c1});
                i += c1 - c0;
            }
        for (const auto& q : rectangles)
            // Column chunks keep each vertex's source shape within its 16-bit fields.
            for (std::size_t c0 = q.c0; c0 < q.c1; c0 += kMaxTransposeColumns) {
                const std::size_t c1 = std::min(q.c1, c0 + kMaxTransposeColumns);
                const Tensor dst = out.slice({c0, q.r0}, {c1, q.r1});
                graph.setTileMapping(dst, tile);
                pl::addTranspose2d(graph, cs, src.slice({q.r0, c0}, {q.r1, c1}), dst, tile);
            }
    }
    prog.add(poplar::program::Execute(cs, {di}));
    return out;
}

Tensor createInput(poplar::Graph& graph, const poplar::Type& inputType, bool lhs,
                   const std::vector<std::size_t>& aShape, const std::vector<std::size_t>& bShape,
                   const poplar::DebugContext& debugContext, const poplar::OptionFlags& options,
                   PlanningCache* cache) {
    const std::string api = lhs ? "createMatMulInputLHS" : "createMatMulInputRHS";
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(inputType, aShape, bShape, options), api);
    checkShapes("poplin::" + api, aShape, bShape);
    checkType("poplin::" + api, inputType, "the input type");
    const auto o = parseOptions(options);
    const auto plan = getPlan(graph, inputType, aShape, bShape, o, cache);
    const std::size_t rows = lhs ? aShape[0] : bShape[0];
    const std::size_t cols = lhs ? aShape[1] : bShape[1];
    if (!lhs) {
        // B is created as PopLibs creates it, the transpose of the convolution's input: {N, K}
        // with K innermost, each block spread over the tiles of its plan column in rectangles,
        // so the product needs no pre-arrangement.
        Tensor x = graph.addVariable(inputType, {cols, rows}, {di, "B"});
        pl::mapPlannedInput(graph, x, plan);
        const Tensor t = x.transpose();
        di.addOutput(t);
        return t;
    }
    Tensor t = graph.addVariable(inputType, {rows, cols}, {di, "A"});
    const std::size_t blockRows = plan.blockM;
    const std::size_t blockCols = plan.blockK;
    // Each block of A (the convolution's weights) is read by the tiles of one row of the plan
    // (all n); its elements are spread over those tiles so that each sends a share of the block
    // rather than one tile sending every copy, in shares of whole weight groups (a conv unit's
    // input channels times the conv units, as PopLibs maps weights by their grouping), so a
    // small block comes from a few tiles rather than one message from every reader.
    const std::size_t readers = plan.splitN;
    const std::size_t grain = pl::cycles::numConvUnits(graph.getTarget(), inputType) *
                              pl::cycles::weightsPerConvUnit(graph.getTarget(), inputType);
    for (const auto& r : ranges(rows, blockRows))
        for (const auto& c : ranges(cols, blockCols)) {
            const Tensor block = t.slice({r.begin, c.begin}, {r.end, c.end}).flatten();
            const std::size_t share = ceilDiv(ceilDiv(block.numElements(), readers), grain) * grain;
            for (std::size_t i = 0; i < readers && i * share < block.numElements(); ++i)
                graph.setTileMapping(
                    block.slice(i * share, std::min(block.numElements(), (i + 1) * share)),
                    plan.tileOf(r.index, c.index, i));
        }
    di.addOutput(t);
    return t;
}

} // namespace

Tensor matMul(poplar::Graph& graph, const Tensor& A, const Tensor& B,
              poplar::program::Sequence& prog, const poplar::Type& outputType,
              const poplar::DebugContext& debugContext, const poplar::OptionFlags& options,
              PlanningCache* cache) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(A, B, outputType, options), "matMul");
    const std::string api = "poplin::matMul";
    if (A.rank() != 2 || B.rank() != 2 || A.dim(1) != B.dim(0) || A.numElements() == 0 ||
        B.numElements() == 0)
        throw poputil::poplibs_error(api + ": cannot multiply tensor '" + A.getName() +
                                     "' of shape " + A.shapeToString() + " by tensor '" +
                                     B.getName() + "' of shape " + B.shapeToString() +
                                     " (need non-empty {M, K} x {K, N})");
    checkType(api, A.elementType(), "tensor '" + A.getName() + "'");
    checkType(api, outputType, "the output type");
    if (B.elementType() != A.elementType())
        throw poputil::poplibs_error(api + ": tensor '" + B.getName() + "' of type " +
                                     B.elementType().toString() + " must have the type of '" +
                                     A.getName() + "' (" + A.elementType().toString() + ")");
    const auto o = parseOptions(options);
    const poplar::Type inType = A.elementType();
    const std::size_t M = A.dim(0), K = A.dim(1), N = B.dim(1);
    const auto plan = getPlan(graph, inType, A.shape(), B.shape(), o, cache);
    di.setValue("plan", plan.describe());
    di.setValue("estimatedCycles", plan.estimatedCycles);

    const auto mRanges = ranges(M, plan.blockM);
    const auto kRanges = ranges(K, plan.blockK);
    const auto nRanges = ranges(N, plan.blockN);
    const bool splitK = kRanges.size() > 1;
    const bool direct = !splitK && o.partialsType == outputType;
    const poplar::Type partialsType = direct ? outputType : o.partialsType;

    // A transposed A is first made row-major where it lives (the convolution's weights have
    // their input channels K innermost); B becomes the convolution's input, K innermost too.
    const Tensor a =
        isTransposedView(A) ? transposeWhereItLives(graph, A, kRanges, prog, di, "transposedA") : A;
    const Tensor bt = B.dim(0) == 1 || B.dim(1) == 1 || isTransposedView(B)
                          ? B.transpose()
                          : pl::rearrangeInput(graph, B, plan, prog, di);

    // Partial results: the output itself when nothing is left to reduce or convert.
    Tensor partials = graph.addVariable(partialsType, {kRanges.size(), M, N},
                                        {di, direct ? "output" : "partials"});
    for (const auto& m : mRanges)
        for (const auto& k : kRanges)
            for (const auto& n : nRanges)
                graph.setTileMapping(partials[k.index].slice({m.begin, n.begin}, {m.end, n.end}),
                                     plan.tileOf(m.index, k.index, n.index));

    // PopLibs' matMul is a convolution whose weights are A (output channels: A's rows, input
    // channels: K) and whose input is B's transpose (field: B's columns). It creates one AMP
    // vertex per tile (createConvPartialAmpVertex: a ConvPartial1x1Out supervisor whose loops
    // cover all of the tile's output-channel groups, paying its fixed cost once).
    poplar::ComputeSet cs = graph.addComputeSet({di, "matMul"});
    const std::string vertexType =
        poputil::templateVertex("poplin::MatMulBlock", inType, partialsType);
    const auto& target = graph.getTarget();
    for (const auto& m : mRanges)
        for (const auto& k : kRanges)
            for (const auto& n : nRanges) {
                poplar::VertexRef v = graph.addVertex(cs, vertexType);
                graph.connect(v["a"], a.slice({m.begin, k.begin}, {m.end, k.end}).flatten());
                graph.connect(v["b"], bt.slice({n.begin, k.begin}, {n.end, k.end}).flatten());
                graph.connect(
                    v["out"],
                    partials[k.index].slice({m.begin, n.begin}, {m.end, n.end}).flatten());
                graph.setInitialValue(v["rows"], static_cast<unsigned>(m.end - m.begin));
                graph.setInitialValue(v["depth"], static_cast<unsigned>(k.end - k.begin));
                graph.setInitialValue(v["cols"], static_cast<unsigned>(n.end - n.begin));
                graph.setTileMapping(v, plan.tileOf(m.index, k.index, n.index));
                graph.setPerfEstimate(v, pl::cycles::matMulBlock(target, inType, partialsType,
                                                                 n.end - n.begin, k.end - k.begin,
                                                                 m.end - m.begin));
            }
    prog.add(poplar::program::Execute(cs, {di}));
    di.addFlops(2ull * M * K * N);
    if (direct) {
        di.addOutput(partials[0]);
        return partials[0];
    }

    // Sum (or only convert) the partials into the output, mapped like the output blocks.
    Tensor out = graph.addVariable(outputType, {M, N}, {di, "output"});
    for (const auto& m : mRanges)
        for (const auto& n : nRanges) {
            // Spread each output block over the tiles that computed its partials.
            const Tensor block = out.slice({m.begin, n.begin}, {m.end, n.end}).flatten();
            const std::size_t per = ceilDiv(block.numElements(), kRanges.size());
            for (const auto& k : kRanges)
                if (k.index * per < block.numElements())
                    graph.setTileMapping(block.slice(k.index * per, std::min(block.numElements(),
                                                                             (k.index + 1) * per)),
                                         plan.tileOf(m.index, k.index, n.index));
        }
    pl::reducePartials(graph, partials, out, prog, di);
    di.addOutput(out);
    return out;
}

Tensor matMul(poplar::Graph& graph, const Tensor& A, const Tensor& B,
              poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
              const poplar::OptionFlags& options, PlanningCache* cache) {
    return matMul(graph, A, B, prog, A.elementType(), debugContext, options, cache);
}

Tensor matMulGrouped(poplar::Graph& graph, const Tensor& A, const Tensor& B,
                     poplar::program::Sequence& prog, const poplar::Type& outputType,
                     const poplar::DebugContext& debugContext, const poplar::OptionFlags& options,
                     PlanningCache* cache) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(A, B, outputType, options), "matMulGrouped");
    if (A.rank() != 3 || B.rank() != 3 || A.dim(0) != B.dim(0) || A.dim(0) == 0)
        throw poputil::poplibs_error("poplin::matMulGrouped: needs A {G, M, K} and B {G, K, N} "
                                     "with the same G > 0, got '" +
                                     A.getName() + "' " + A.shapeToString() + " and '" +
                                     B.getName() + "' " + B.shapeToString());
    std::vector<Tensor> groups;
    for (std::size_t g = 0; g < A.dim(0); ++g) {
        // matMul checks the inner shapes and types and records its own FLOPs under `di`.
        Tensor c = matMul(graph, A[g], B[g], prog, outputType, {di, "group" + std::to_string(g)},
                          options, cache);
        groups.push_back(c.expand({0}));
    }
    Tensor out = poplar::concat(groups, 0);
    di.addOutput(out);
    return out;
}

Tensor createMatMulInputLHS(poplar::Graph& graph, const poplar::Type& inputType,
                            const poplar::Type&, const std::vector<std::size_t>& aShape,
                            const std::vector<std::size_t>& bShape,
                            const poplar::DebugContext& debugContext,
                            const poplar::OptionFlags& options, PlanningCache* cache) {
    return createInput(graph, inputType, true, aShape, bShape, debugContext, options, cache);
}

Tensor createMatMulInputLHS(poplar::Graph& graph, const poplar::Type& dataType,
                            const std::vector<std::size_t>& aShape,
                            const std::vector<std::size_t>& bShape,
                            const poplar::DebugContext& debugContext,
                            const poplar::OptionFlags& options, PlanningCache* cache) {
    return createInput(graph, dataType, true, aShape, bShape, debugContext, options, cache);
}

Tensor createMatMulInputRHS(poplar::Graph& graph, const poplar::Type& inputType,
                            const poplar::Type&, const std::vector<std::size_t>& aShape,
                            const std::vector<std::size_t>& bShape,
                            const poplar::DebugContext& debugContext,
                            const poplar::OptionFlags& options, PlanningCache* cache) {
    return createInput(graph, inputType, false, aShape, bShape, debugContext, options, cache);
}

Tensor createMatMulInputRHS(poplar::Graph& graph, const poplar::Type& dataType,
                            const std::vector<std::size_t>& aShape,
                            const std::vector<std::size_t>& bShape,
                            const poplar::DebugContext& debugContext,
                            const poplar::OptionFlags& options, PlanningCache* cache) {
    return createInput(graph, dataType, false, aShape, bShape, debugContext, options, cache);
}

} // namespace poplin
