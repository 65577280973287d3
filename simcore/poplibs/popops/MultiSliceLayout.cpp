#include "popops/MultiSliceLayout.hpp"

#include "common/ElementWiseBuilder.hpp"

#include <algorithm>
#include <poputil/exceptions.hpp>
#include <sstream>

namespace popops::detail {

namespace pl = tilescope::poplibs;
using poplar::Tensor;

std::string planText(const SlicePlanInternal& p) {
    std::ostringstream os;
    os << SlicePlan(std::make_unique<SlicePlanInternal>(p));
    return os.str();
}

void checkSliceType(const std::string& api, const poplar::Type& type, const std::string& what) {
    if (type != poplar::FLOAT && type != poplar::HALF && type != poplar::INT &&
        type != poplar::UNSIGNED_INT)
        throw poputil::poplibs_error("popops::" + api + ": " + what + " has type " +
                                     type.toString() +
                                     "; FLOAT, HALF, INT and UNSIGNED_INT are supported");
}

std::size_t slicedDim(const std::string& api, const std::vector<std::size_t>& shape,
                      const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes) {
    if (dims.size() != 1 || sizes.size() != 1)
        throw poputil::poplibs_error("popops::" + api + ": dims " + pl::shapeString(dims) +
                                     " and sizes " + pl::shapeString(sizes) +
                                     " must have one entry each (one sliced dimension)");
    if (dims[0] >= shape.size())
        throw poputil::poplibs_error("popops::" + api + ": dimension " + std::to_string(dims[0]) +
                                     " is out of range for shape " + pl::shapeString(shape));
    if (sizes[0] != 1)
        throw poputil::poplibs_error("popops::" + api + ": slice size " + std::to_string(sizes[0]) +
                                     " is not supported; multi-slices are 1 entry each");
    return dims[0];
}

std::pair<std::size_t, std::size_t> tableSize(const std::vector<std::size_t>& shape,
                                              std::size_t dim) {
    std::size_t n = 1;
    for (auto s : shape)
        n *= s;
    const std::size_t entries = shape[dim];
    return {entries, entries == 0 ? 0 : n / entries};
}

Tensor asTable(const Tensor& t, std::size_t dim) {
    const auto [entries, elems] = tableSize(t.shape(), dim);
    return t.dimRoll(static_cast<unsigned>(dim), 0).reshape({entries, elems});
}

std::vector<std::size_t> slicesShape(std::vector<std::size_t> shape, std::size_t dim,
                                     std::size_t numIndices) {
    shape[dim] = 1;
    shape.insert(shape.begin(), numIndices);
    return shape;
}

Tensor slicesAsTable(const Tensor& s, std::size_t dim, std::size_t elems) {
    return s.dimRoll(static_cast<unsigned>(dim + 1), 1).reshape({s.dim(0), elems});
}

Tensor flatOffsets(const std::string& api, const Tensor& offsets) {
    if (offsets.elementType() != poplar::UNSIGNED_INT)
        throw poputil::poplibs_error("popops::" + api + ": offsets '" + offsets.getName() +
                                     "' have type " + offsets.elementType().toString() +
                                     "; they must be UNSIGNED_INT");
    if (offsets.rank() == 0 || offsets.rank() > 2 || (offsets.rank() == 2 && offsets.dim(1) != 1))
        throw poputil::poplibs_error("popops::" + api + ": offsets '" + offsets.getName() +
                                     "' have shape " + offsets.shapeToString() +
                                     "; expected {numIndices, 1} or {numIndices}");
    return offsets.flatten();
}

SlicePlanInternal resolvePlan(const std::string& api, const poplar::Graph& graph,
                              const poplar::Type& type, std::size_t entries, std::size_t elems,
                              const SlicePlan& plan) {
    const SlicePlanInternal& p = plan.getImpl();
    if (p.isNull)
        return planEmbedding(graph.getTarget(), type, entries, elems, 1, EmbeddingPlanOptions{});
    if (p.numEntries != entries || p.elemsPerEntry != elems)
        throw poputil::poplibs_error(
            "popops::" + api + ": the plan is for " + std::to_string(p.numEntries) + " x " +
            std::to_string(p.elemsPerEntry) + " entries x elements, the tensor has " +
            std::to_string(entries) + " x " + std::to_string(elems));
    if (p.tilesUsed() > graph.getTarget().getNumTiles())
        throw poputil::poplibs_error("popops::" + api + ": the plan needs " +
                                     std::to_string(p.tilesUsed()) + " tiles, the graph has " +
                                     std::to_string(graph.getTarget().getNumTiles()));
    return p;
}

std::vector<std::pair<std::size_t, std::size_t>> splitRange(std::size_t n, std::size_t pieces) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    pieces = std::max<std::size_t>(1, std::min(pieces, n));
    for (std::size_t k = 0; k < pieces && n > 0; ++k)
        out.emplace_back(n * k / pieces, n * (k + 1) / pieces);
    return out;
}

std::vector<TablePiece> tablePieces(const SlicePlanInternal& p) {
    std::vector<TablePiece> out;
    const std::size_t epp = p.entriesPerPart(), epb = p.elemsPerBlock();
    for (unsigned part = 0; part < p.slicedSplit; ++part) {
        const std::size_t r0 = part * epp, r1 = std::min(p.numEntries, r0 + epp);
        if (r0 >= r1)
            continue;
        for (unsigned block = 0; block < p.unslicedSplit; ++block) {
            const std::size_t c0 = block * epb, c1 = std::min(p.elemsPerEntry, c0 + epb);
            if (c0 < c1)
                out.push_back({part, block, r0, r1, c0, c1});
        }
    }
    return out;
}

std::pair<std::size_t, std::size_t> groupLookups(const SlicePlanInternal& p, unsigned g,
                                                 std::size_t n) {
    const std::size_t per = p.lookupsPerGroup(n);
    const std::size_t first = std::min(n, g * per);
    return {first, std::min(n, first + per)};
}

std::vector<LookupRun> lookupRuns(const SlicePlanInternal& p, std::size_t n) {
    std::vector<LookupRun> runs;
    for (unsigned g = 0; g < p.lookupSplit; ++g) {
        const auto [first, end] = groupLookups(p, g, n);
        if (first >= end)
            continue;
        const std::size_t per = (end - first + p.slicedSplit - 1) / p.slicedSplit;
        for (unsigned j = 0; j < p.slicedSplit; ++j) {
            const std::size_t i0 = std::min(end, first + j * per), i1 = std::min(end, i0 + per);
            if (i0 < i1)
                runs.push_back({g, j, i0, i1});
        }
    }
    return runs;
}

void mapTable(poplar::Graph& graph, const Tensor& table, const SlicePlanInternal& p) {
    for (const auto& piece : tablePieces(p)) {
        const Tensor flat =
            table.slice(piece.r0, piece.r1, 0).slice(piece.c0, piece.c1, 1).flatten();
        // PopLibs spreads each piece's grains over the tiles of its lookup groups.
        const std::size_t grain = p.unslicedGrain, n = flat.numElements();
        const std::size_t perGroup =
            ((n + grain - 1) / grain + p.lookupSplit - 1) / p.lookupSplit * grain;
        for (unsigned g = 0; g < p.lookupSplit; ++g) {
            const std::size_t a = std::min(n, g * perGroup), b = std::min(n, a + perGroup);
            if (a < b)
                graph.setTileMapping(flat.slice(a, b), p.tileOf(g, piece.part, piece.block));
        }
    }
}

void mapGroupCopies(poplar::Graph& graph, const Tensor& copies, const SlicePlanInternal& p) {
    for (unsigned g = 0; g < p.lookupSplit; ++g)
        for (const auto& piece : tablePieces(p))
            graph.setTileMapping(
                copies[g].slice(piece.r0, piece.r1, 0).slice(piece.c0, piece.c1, 1),
                p.tileOf(g, piece.part, piece.block));
}

void mapSlices(poplar::Graph& graph, const Tensor& slices, const SlicePlanInternal& p) {
    const std::size_t epb = p.elemsPerBlock();
    for (const auto& run : lookupRuns(p, slices.dim(0)))
        for (unsigned block = 0; block < p.unslicedSplit; ++block) {
            const std::size_t c0 = block * epb, c1 = std::min(p.elemsPerEntry, c0 + epb);
            if (c0 < c1)
                graph.setTileMapping(slices.slice(run.begin, run.end, 0).slice(c0, c1, 1),
                                     p.tileOf(run.group, run.part, block));
        }
}

} // namespace popops::detail
