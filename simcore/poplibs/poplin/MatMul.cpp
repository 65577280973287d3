// poplin::matMul and the creation of its inputs: plans, blocks per tile, partials and reduction.

#include "poplin/MatMul.hpp"

#include "common/CycleEstimates.hpp"
#include "common/ElementWiseBuilder.hpp"
#include "common/OptionDefaults.hpp"
#include "poplin/ConvBuild.hpp"
#include "poplin/ConvReduce.hpp"
#include "poplin/MatMulLayout.hpp"
#include "poplin/MatMulPlanner.hpp"
#include "poplin/MatMulVertex.hpp"
#include "poplin/PlanningCacheImpl.hpp"
#include "popops/Transpose2d.hpp"

#include <algorithm>
#include <map>
#include <numeric>
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
    bool use128BitConvUnitLoad = false;
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
        } else if (name == "use128BitConvUnitLoad") {
            o.use128BitConvUnitLoad = pl::conv::parseBoolOption(name, value, "poplin::matMul");
        } else if (name == "fullyConnectedPass") {
            // PopLibs plans the fully connected passes jointly; TileScope plans each product
            // alone, so the pass is checked and recorded with the call, not used.
            static const char* const passes[] = {"NONE", "INFERENCE_FWD", "TRAINING_FWD",
                                                 "TRAINING_BWD", "TRAINING_WU"};
            if (std::find(std::begin(passes), std::end(passes), value) == std::end(passes))
                throw poplar::invalid_option("poplin::matMul: option 'fullyConnectedPass' must "
                                             "be one of NONE, INFERENCE_FWD, TRAINING_FWD, "
                                             "TRAINING_BWD, TRAINING_WU, got '" +
                                             value + "'");
        } else if (name == "enableMultiStageReduce" || name == "enableFastReduce" ||
                   name == "remapOutputTensor" || name == "enableConvDithering" ||
                   name == "inputRHSIsPreArranged") {
            pl::conv::parseBoolOption(name, value, "poplin::matMul"); // checked, no effect here
        } else {
            throw poplar::invalid_option(
                "poplin::matMul: unknown option '" + name +
                "' (known: availableMemoryProportion, partialsType, use128BitConvUnitLoad, "
                "fullyConnectedPass, inputRHSIsPreArranged, enableMultiStageReduce, "
                "enableFastReduce, remapOutputTensor, enableConvDithering)");
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
    const auto key = std::make_tuple(static_cast<unsigned>(inputType.native()),
                                     static_cast<unsigned>(o.partialsType.native()), a[0], a[1],
                                     b[1], o.availableMemoryProportion,
                                     graph.getTarget().getNumTiles(), o.use128BitConvUnitLoad);
    if (cache)
        if (auto it = cache->impl().plans.find(key); it != cache->impl().plans.end())
            return it->second;
    auto plan = pl::planMatMul(graph.getTarget(), inputType, o.partialsType, a[0], a[1], b[1],
                               o.availableMemoryProportion, o.use128BitConvUnitLoad);
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
    pl::mapPlannedWeights(graph, t, plan);
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
    // their input channels K innermost), and A in a product's layout (its rows innermost) is
    // regrouped; B becomes the convolution's input, K innermost too. Both operands' regroups
    // share one compute set, as in PopLibs' convolution.
    pl::ProductPreArrangement arrangement(graph, di);
    const Tensor a = isTransposedView(A)
                         ? transposeWhereItLives(graph, A, kRanges, prog, di, "transposedA")
                         : arrangement.weights(A, plan);
    const Tensor bt = B.dim(0) == 1 || B.dim(1) == 1 || isTransposedView(B)
                          ? B.transpose()
                          : arrangement.input(B, plan);
    arrangement.lower(prog);

    // The partials and the result in the layout of PopLibs' convolution output: the output
    // channels (A's rows) innermost in groups of the AMP's partial channels per group (its conv
    // units), {M / g, N, g}; the product returns the {M, N} view of it as PopLibs' matMul does
    // (no copy), so a following product finds A's rows innermost and regroups them.
    const std::size_t g = std::gcd(std::size_t(pl::cycles::numConvUnits(graph.getTarget(), inType)),
                                   std::gcd(M, plan.blockM));
    const auto asMatrix = [&](const Tensor& grouped) {
        return grouped.dimShuffle({0, 2, 1}).reshape({M, N});
    };
    const auto block = [&](const Tensor& grouped, const Range& m, const Range& n) {
        return grouped.slice({m.begin / g, n.begin, 0}, {m.end / g, n.end, g}).flatten();
    };
    // Partial results: the output itself when nothing is left to reduce or convert.
    Tensor partials = graph.addVariable(partialsType, {kRanges.size(), M / g, N, g},
                                        {di, direct ? "output" : "partials"});
    for (const auto& m : mRanges)
        for (const auto& k : kRanges)
            for (const auto& n : nRanges)
                graph.setTileMapping(block(partials[k.index], m, n),
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
                graph.connect(v["out"], block(partials[k.index], m, n));
                graph.setInitialValue(v["rows"], static_cast<unsigned>(m.end - m.begin));
                graph.setInitialValue(v["depth"], static_cast<unsigned>(k.end - k.begin));
                graph.setInitialValue(v["cols"], static_cast<unsigned>(n.end - n.begin));
                graph.setInitialValue(v["outGroup"], static_cast<unsigned>(g));
                graph.setTileMapping(v, plan.tileOf(m.index, k.index, n.index));
                graph.setPerfEstimate(v, pl::cycles::matMulBlock(target, inType, partialsType,
                                                                 n.end - n.begin, k.end - k.begin,
                                                                 m.end - m.begin,
                                                                 plan.use128BitConvUnitLoad));
            }
    prog.add(poplar::program::Execute(cs, {di}));
    di.addFlops(2ull * M * K * N);
    if (direct) {
        const Tensor out = asMatrix(partials[0]);
        di.addOutput(out);
        return out;
    }

    // Sum (or only convert) the partials into the output, laid out and mapped like the partial
    // blocks: each block spread over the tiles that computed its partials, in whole groups.
    Tensor grouped = graph.addVariable(outputType, {M / g, N, g}, {di, "output"});
    for (const auto& m : mRanges)
        for (const auto& n : nRanges) {
            const Tensor piece = block(grouped, m, n);
            const std::size_t per = ceilDiv(ceilDiv(piece.numElements(), kRanges.size()), g) * g;
            for (const auto& k : kRanges)
                if (k.index * per < piece.numElements())
                    graph.setTileMapping(piece.slice(k.index * per, std::min(piece.numElements(),
                                                                             (k.index + 1) * per)),
                                         plan.tileOf(m.index, k.index, n.index));
        }
    pl::reducePartials(graph, partials, grouped, prog, di);
    const Tensor out = asMatrix(grouped);
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
