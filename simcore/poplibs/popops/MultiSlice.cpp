// popops::multiSlice and the tensor-creation helpers of the multiSlice family, laid out and
// built as PopLibs' planned multiSlice does (lib/popops/DynamicSlice.cpp: createSliceableTensor
// with a plan, multiSlicePlanned). The table is split by the plan into pieces (a part of the
// entries x a block of elements) and the lookups into groups; each group's tiles hold a piece
// each, and every vertex checks each run-time index against the entries it holds, as PopLibs'
// MultiSlice vertices do. With several lookup groups the table, stored spread over them, is
// first broadcast so that each group has a whole copy. With several parts a slice is taken in
// two stages: each part fills a partial slice (zeros where it does not hold the index) and a
// second compute set picks, per index, the partial of the part that holds it, on the tiles the
// group's lookups are spread over.

#include "common/ElementWiseBuilder.hpp"
#include "popops/DynamicSlice.hpp"
#include "popops/MultiSliceLayout.hpp"
#include "popops/SliceCycles.hpp"

#include <algorithm>
#include <poplar/exceptions.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

namespace pl = tilescope::poplibs;
using namespace detail;
using poplar::Tensor;

Tensor createSliceableTensor(poplar::Graph& graph, const poplar::Type& type,
                             const std::vector<std::size_t>& shape,
                             const std::vector<std::size_t>& dims,
                             const std::vector<std::size_t>& sizes, const SlicePlan& plan,
                             const poplar::OptionFlags& options,
                             const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(type, shape, dims, sizes, options),
                              "createSliceableTensor");
    checkSliceType("createSliceableTensor", type, "the tensor");
    const std::size_t dim = slicedDim("createSliceableTensor", shape, dims, sizes);
    const auto [entries, elems] = tableSize(shape, dim);
    const auto p = resolvePlan("createSliceableTensor", graph, type, entries, elems, plan);
    Tensor t = graph.addVariable(type, shape, {di});
    if (t.numElements() != 0)
        mapTable(graph, asTable(t, dim), p);
    di.addOutput(t);
    return t;
}

Tensor createSliceTensor(poplar::Graph& graph, const poplar::Type& type,
                         const std::vector<std::size_t>& shape,
                         const std::vector<std::size_t>& dims,
                         const std::vector<std::size_t>& sizes, std::size_t numIndices,
                         const SlicePlan& plan, const poplar::OptionFlags& options,
                         const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(type, shape, dims, sizes, numIndices, options),
                              "createSliceTensor");
    checkSliceType("createSliceTensor", type, "the tensor");
    const std::size_t dim = slicedDim("createSliceTensor", shape, dims, sizes);
    const auto [entries, elems] = tableSize(shape, dim);
    const auto p = resolvePlan("createSliceTensor", graph, type, entries, elems, plan);
    Tensor s = graph.addVariable(type, slicesShape(shape, dim, numIndices), {di});
    if (s.numElements() != 0)
        mapSlices(graph, slicesAsTable(s, dim, elems), p);
    di.addOutput(s);
    return s;
}

Tensor createIndicesTensor(poplar::Graph& graph, const std::vector<std::size_t>& dims,
                           std::size_t numIndices, const SlicePlan&,
                           const poplar::OptionFlags& options,
                           const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(dims, numIndices, options),
                              "createIndicesTensor");
    Tensor t = graph.addVariable(poplar::UNSIGNED_INT, {numIndices, dims.size()}, {di});
    // PopLibs allocates indices linearly with at least minIndicesPerTile (32) per tile.
    poputil::mapTensorLinearly(graph, t, 32, 1);
    di.addOutput(t);
    return t;
}

Tensor multiSlice(poplar::Graph& graph, const Tensor& t, const Tensor& offsets,
                  const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                  poplar::program::Sequence& prog, const SlicePlan& plan,
                  const poplar::OptionFlags& options, const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, offsets, dims, sizes, options),
                              "multiSlice");
    const std::string api = "multiSlice";
    checkSliceType(api, t.elementType(), "tensor '" + t.getName() + "'");
    const std::size_t dim = slicedDim(api, t.shape(), dims, sizes);
    const Tensor idx = flatOffsets(api, offsets);
    const std::size_t n = idx.numElements();
    const auto type = t.elementType();
    const auto [entries, elems] = tableSize(t.shape(), dim);
    const SlicePlanInternal p = resolvePlan(api, graph, type, entries, elems, plan);
    di.setValue("plan", planText(p));
    Tensor out = graph.addVariable(type, slicesShape(t.shape(), dim, n), {di, "slices"});
    if (out.numElements() == 0) {
        di.addOutput(out);
        return out;
    }
    const Tensor table = asTable(t, dim), sub = slicesAsTable(out, dim, elems);
    mapSlices(graph, sub, p);
    const auto& target = graph.getTarget();
    const unsigned workers = target.getNumWorkerContexts();
    // With several lookup groups each group reads a whole copy of the table: the broadcast
    // PopLibs' planner charges as the first stage's exchange.
    Tensor base = table.expand({0});
    if (p.lookupSplit > 1) {
        Tensor copies = graph.addVariable(type, {p.lookupSplit, entries, elems}, {di, "table"});
        mapGroupCopies(graph, copies, p);
        prog.add(poplar::program::Copy(base.broadcast(p.lookupSplit, 0), copies, false, {di}));
        base = copies;
    }
    const auto pieces = tablePieces(p);
    // A part whose entries are all past the table's end holds nothing and takes no tile.
    const std::size_t epp = p.entriesPerPart();
    const unsigned parts = static_cast<unsigned>((entries + epp - 1) / epp);
    // With several parts each fills its own partial slices, on the tiles of its piece; the
    // second stage picks among them.
    Tensor partials;
    if (parts > 1)
        partials = graph.addVariable(type, {parts, n, elems}, {di, "partials"});
    poplar::ComputeSet cs = graph.addComputeSet({di, api});
    const std::string sliceType = poputil::templateVertex("popops::MultiSlice", type);
    for (unsigned g = 0; g < p.lookupSplit; ++g) {
        const auto [first, end] = groupLookups(p, g, n);
        if (first >= end)
            continue;
        const Tensor groupBase = base[p.lookupSplit > 1 ? g : 0];
        for (const auto& piece : pieces) {
            const unsigned tile = p.tileOf(g, piece.part, piece.block);
            const Tensor dst = (parts > 1 ? partials[piece.part] : sub)
                                   .slice(first, end, 0)
                                   .slice(piece.c0, piece.c1, 1);
            if (parts > 1)
                graph.setTileMapping(dst, tile);
            const Tensor pieceBase =
                groupBase.slice(piece.r0, piece.r1, 0).slice(piece.c0, piece.c1, 1).flatten();
            for (const auto& [i0, i1] : splitRange(end - first, workers)) {
                poplar::VertexRef v = graph.addVertex(cs, sliceType);
                graph.connect(v["offsets"], idx.slice(first + i0, first + i1));
                graph.connect(v["baseT"], pieceBase);
                graph.connect(v["subT"], dst.slice(i0, i1, 0).flatten());
                graph.setInitialValue(v["baseOffset"], static_cast<unsigned>(piece.r0));
                graph.setInitialValue(v["numBaseElements"],
                                      static_cast<unsigned>(piece.r1 - piece.r0));
                graph.setInitialValue(v["regionSize"], static_cast<unsigned>(piece.c1 - piece.c0));
                graph.setTileMapping(v, tile);
                // PopLibs' MultiSlice vertex estimator: every index in range.
                graph.setPerfEstimate(
                    v, pl::cycles::multiSliceWorker(target, type, piece.c1 - piece.c0, i1 - i0));
            }
        }
    }
    prog.add(poplar::program::Execute(cs, {di}));
    if (parts > 1) {
        // The second stage runs where mapSlices put each index: the group's lookups split into
        // runs over the parts' tiles, each run reading its partials from every part.
        poplar::ComputeSet pick = graph.addComputeSet({di, api + "/partials"});
        const std::string pickType = poputil::templateVertex("popops::MultiSlicePartials", type);
        for (const auto& run : lookupRuns(p, n)) {
            const std::size_t r0 = run.begin;
            for (const auto& piece : pieces) {
                if (piece.part != 0)
                    continue; // one run per block
                const unsigned tile = p.tileOf(run.group, run.part, piece.block);
                const std::size_t c0 = piece.c0, c1 = piece.c1;
                for (const auto& [i0, i1] : splitRange(run.end - r0, workers)) {
                    poplar::VertexRef v = graph.addVertex(pick, pickType);
                    graph.connect(v["offsets"], idx.slice(r0 + i0, r0 + i1));
                    graph.connect(v["partials"],
                                  partials.slice(r0 + i0, r0 + i1, 1).slice(c0, c1, 2).flatten());
                    graph.connect(v["subT"],
                                  sub.slice(r0 + i0, r0 + i1, 0).slice(c0, c1, 1).flatten());
                    graph.setInitialValue(v["entriesPerPart"], static_cast<unsigned>(epp));
                    graph.setInitialValue(v["numParts"], parts);
                    graph.setInitialValue(v["regionSize"], static_cast<unsigned>(c1 - c0));
                    graph.setTileMapping(v, tile);
                    graph.setPerfEstimate(
                        v, pl::cycles::multiSliceWorker(target, type, c1 - c0, i1 - i0));
                }
            }
        }
        prog.add(poplar::program::Execute(pick, {di}));
    }
    di.addOutput(out);
    return out;
}

Tensor multiSlice(poplar::Graph& graph, const Tensor& t, poplar::ArrayRef<unsigned> offsets,
                  std::size_t dim, poplar::program::Sequence& prog,
                  const poplar::DebugContext& debugContext) {
    std::vector<unsigned> list(offsets.begin(), offsets.end());
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, list, dim), "multiSlice");
    if (dim >= t.rank())
        throw poputil::poplibs_error("popops::multiSlice: dimension " + std::to_string(dim) +
                                     " is out of range for tensor '" + t.getName() + "' of shape " +
                                     t.shapeToString());
    for (unsigned o : list)
        if (o >= t.dim(static_cast<unsigned>(dim)))
            throw poputil::poplibs_error("popops::multiSlice: index " + std::to_string(o) +
                                         " is out of range for dimension " + std::to_string(dim) +
                                         " of tensor '" + t.getName() + "' of shape " +
                                         t.shapeToString());
    std::vector<Tensor> pieces;
    for (unsigned o : list)
        pieces.push_back(t.slice(o, o + 1, static_cast<unsigned>(dim)).expand({0}));
    Tensor out = graph.addVariable(t.elementType(), slicesShape(t.shape(), dim, list.size()),
                                   {di, "slices"});
    if (out.numElements() != 0) {
        const auto [entries, elems] = tableSize(t.shape(), dim);
        const SlicePlanInternal p =
            resolvePlan("multiSlice", graph, t.elementType(), entries, elems, SlicePlan());
        mapSlices(graph, slicesAsTable(out, dim, elems), p);
        prog.add(poplar::program::Copy(poplar::concat(pieces), out, false, {di}));
    }
    di.addOutput(out);
    return out;
}

} // namespace popops
