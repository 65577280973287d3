// popops::multiSlice, multiUpdate, multiUpdateAdd, multiUpdateMax and their tensor-creation
// helpers. The sliced tensor is viewed as a table of entries x elements (the sliced dimension
// rolled to the front); a SlicePlan splits it into (part of entries, block of elements) pieces,
// one per tile, and every vertex checks each run-time index against the entries it holds, as
// PopLibs' MultiSlice/MultiUpdate vertices do. A slice over several parts is taken in two stages:
// each part fills a partial slice (zeros where it does not hold the index) and a second compute
// set picks, per index, the partial of the part that holds it.

#include "common/ElementWiseBuilder.hpp"
#include "popops/Cast.hpp"
#include "popops/DynamicSlice.hpp"
#include "popops/SliceCycles.hpp"
#include "popops/SlicePlanInternal.hpp"

#include <algorithm>
#include <poplar/exceptions.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>
#include <sstream>

namespace popops {

namespace pl = tilescope::poplibs;
using poplar::Tensor;

namespace {

std::string planText(const SlicePlanInternal& p) {
    std::ostringstream os;
    os << SlicePlan(std::make_unique<SlicePlanInternal>(p));
    return os.str();
}

void checkType(const std::string& api, const poplar::Type& type, const std::string& what) {
    if (type != poplar::FLOAT && type != poplar::HALF && type != poplar::INT &&
        type != poplar::UNSIGNED_INT)
        throw poputil::poplibs_error("popops::" + api + ": " + what + " has type " +
                                     type.toString() +
                                     "; FLOAT, HALF, INT and UNSIGNED_INT are supported");
}

/// Checks dims/sizes (one dimension, slices of 1) against a shape; returns the dimension.
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

/// The number of entries and elements per entry of `shape` sliced in `dim`.
std::pair<std::size_t, std::size_t> tableSize(const std::vector<std::size_t>& shape,
                                              std::size_t dim) {
    std::size_t n = 1;
    for (auto s : shape)
        n *= s;
    const std::size_t entries = shape[dim];
    return {entries, entries == 0 ? 0 : n / entries};
}

/// `t` as a table [entries, elements] with dimension `dim` first.
Tensor asTable(const Tensor& t, std::size_t dim) {
    const auto [entries, elems] = tableSize(t.shape(), dim);
    return t.dimRoll(static_cast<unsigned>(dim), 0).reshape({entries, elems});
}

/// The shape of `numIndices` slices of `shape` in `dim`.
std::vector<std::size_t> slicesShape(std::vector<std::size_t> shape, std::size_t dim,
                                     std::size_t numIndices) {
    shape[dim] = 1;
    shape.insert(shape.begin(), numIndices);
    return shape;
}

/// Slices `s` (shape slicesShape) as a table [numIndices, elements].
Tensor slicesAsTable(const Tensor& s, std::size_t dim, std::size_t elems) {
    return s.dimRoll(static_cast<unsigned>(dim + 1), 1).reshape({s.dim(0), elems});
}

/// The offsets as a flat vector of indices ({n, 1} or {n}).
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

/// The plan to use: the caller's when it is for this table, else one made for it.
SlicePlanInternal resolvePlan(const std::string& api, const poplar::Graph& graph,
                              const poplar::Type& type, std::size_t entries, std::size_t elems,
                              const SlicePlan& plan) {
    const SlicePlanInternal& p = plan.getImpl();
    if (p.isNull)
        return detail::planEmbedding(graph.getTarget(), type, entries, elems, 0.6);
    if (p.numEntries != entries || p.elemsPerEntry != elems)
        throw poputil::poplibs_error(
            "popops::" + api + ": the plan is for " + std::to_string(p.numEntries) + " x " +
            std::to_string(p.elemsPerEntry) + " entries x elements, the tensor has " +
            std::to_string(entries) + " x " + std::to_string(elems));
    if (p.tileOf(p.slicedSplit - 1, p.unslicedSplit - 1) >= graph.getTarget().getNumTiles())
        throw poputil::poplibs_error("popops::" + api + ": the plan needs " +
                                     std::to_string(p.slicedSplit * p.unslicedSplit) +
                                     " tiles, the graph has " +
                                     std::to_string(graph.getTarget().getNumTiles()));
    return p;
}

/// Calls f(part, block, firstEntry, endEntry, firstElem, endElem, tile) for every non-empty
/// piece of the plan.
template <typename F> void forEachPiece(const SlicePlanInternal& p, F&& f) {
    const std::size_t epp = p.entriesPerPart(), epb = p.elemsPerBlock();
    for (unsigned part = 0; part < p.slicedSplit; ++part) {
        const std::size_t r0 = part * epp, r1 = std::min(p.numEntries, r0 + epp);
        if (r0 >= r1)
            continue;
        for (unsigned block = 0; block < p.unslicedSplit; ++block) {
            const std::size_t c0 = block * epb, c1 = std::min(p.elemsPerEntry, c0 + epb);
            if (c0 >= c1)
                continue;
            f(part, block, r0, r1, c0, c1, p.tileOf(part, block));
        }
    }
}

/// [0, n) cut into at most `pieces` nearly equal non-empty ranges.
std::vector<std::pair<std::size_t, std::size_t>> split(std::size_t n, std::size_t pieces) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    pieces = std::max<std::size_t>(1, std::min(pieces, n));
    for (std::size_t k = 0; k < pieces && n > 0; ++k)
        out.emplace_back(n * k / pieces, n * (k + 1) / pieces);
    return out;
}

/// Maps `table` ([entries, elements]) as `p` lays it out.
void mapTable(poplar::Graph& graph, const Tensor& table, const SlicePlanInternal& p) {
    forEachPiece(p, [&](unsigned, unsigned, std::size_t r0, std::size_t r1, std::size_t c0,
                        std::size_t c1, unsigned tile) {
        graph.setTileMapping(table.slice(r0, r1, 0).slice(c0, c1, 1), tile);
    });
}

/// Maps slices ([numIndices, elements]) to the tiles of the plan's first part, block by block.
void mapSlices(poplar::Graph& graph, const Tensor& slices, const SlicePlanInternal& p) {
    const std::size_t epb = p.elemsPerBlock();
    for (unsigned block = 0; block < p.unslicedSplit; ++block) {
        const std::size_t c0 = block * epb, c1 = std::min(p.elemsPerEntry, c0 + epb);
        if (c0 < c1)
            graph.setTileMapping(slices.slice(c0, c1, 1), p.tileOf(0, block));
    }
}

enum class Update { Write, Add, Max };

void updateImpl(const std::string& api, poplar::Graph& graph, const Tensor& t, const Tensor& s,
                const Tensor& offsets, const Tensor* scale, const std::vector<std::size_t>& dims,
                const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                const SlicePlan& plan, Update kind, pl::PoplibsOpDebugInfo& di) {
    checkType(api, t.elementType(), "tensor '" + t.getName() + "'");
    const std::size_t dim = slicedDim(api, t.shape(), dims, sizes);
    const Tensor idx = flatOffsets(api, offsets);
    const std::size_t n = idx.numElements();
    const auto expected = slicesShape(t.shape(), dim, n);
    if (s.elementType() != t.elementType() || s.shape() != expected)
        throw poputil::poplibs_error(
            "popops::" + api + ": slices '" + s.getName() + "' of type " +
            s.elementType().toString() + " and shape " + s.shapeToString() + " must have type " +
            t.elementType().toString() + " and shape " + pl::shapeString(expected));
    const auto type = t.elementType();
    const auto [entries, elems] = tableSize(t.shape(), dim);
    const SlicePlanInternal p = resolvePlan(api, graph, type, entries, elems, plan);
    di.setValue("plan", planText(p));
    if (n == 0 || entries == 0 || elems == 0)
        return;
    // The scale as the vertex reads it: FLOAT for floating data, the data's type otherwise.
    Tensor scaleT;
    const bool floating = type == poplar::FLOAT || type == poplar::HALF;
    if (kind == Update::Add) {
        if (scale->numElements() != 1)
            throw poputil::poplibs_error("popops::" + api + ": scale '" + scale->getName() +
                                         "' of shape " + scale->shapeToString() +
                                         " must hold one element");
        const auto st = scale->elementType();
        const bool ok = st == type || (type == poplar::HALF && st == poplar::FLOAT);
        if (!ok)
            throw poputil::poplibs_error(
                "popops::" + api + ": scale '" + scale->getName() + "' has type " + st.toString() +
                "; it must be " + type.toString() + (type == poplar::HALF ? " or FLOAT" : ""));
        scaleT = scale->flatten()[0];
        if (floating && st == poplar::HALF)
            scaleT = popops::cast(graph, scaleT, poplar::FLOAT, prog, {di, "scale"});
    }
    const Tensor table = asTable(t, dim), sub = slicesAsTable(s, dim, elems);
    const auto& target = graph.getTarget();
    const std::string vertexType =
        kind == Update::Write ? poputil::templateVertex("popops::MultiUpdate", type)
        : kind == Update::Add ? poputil::templateVertex("popops::ScaledMultiUpdateOp", type,
                                                        floating ? poplar::FLOAT : type, "ADD")
                              : poputil::templateVertex("popops::MultiUpdateOp", type, "MAX");
    poplar::ComputeSet cs = graph.addComputeSet({di, api});
    const unsigned workers = target.getNumWorkerContexts();
    forEachPiece(p, [&](unsigned, unsigned, std::size_t r0, std::size_t r1, std::size_t c0,
                        std::size_t c1, unsigned tile) {
        // Workers own rows, so no two write the same element; each checks every index.
        for (const auto& [w0, w1] : split(r1 - r0, workers)) {
            poplar::VertexRef v = graph.addVertex(cs, vertexType);
            graph.connect(v["offsets"], idx);
            graph.connect(v["subT"], sub.slice(c0, c1, 1).flatten());
            graph.connect(v["baseT"], table.slice(r0 + w0, r0 + w1, 0).slice(c0, c1, 1).flatten());
            if (kind == Update::Add)
                graph.connect(v["scale"], scaleT);
            graph.setInitialValue(v["baseOffset"], static_cast<unsigned>(r0 + w0));
            graph.setInitialValue(v["numBaseElements"], static_cast<unsigned>(w1 - w0));
            graph.setInitialValue(v["regionSize"], static_cast<unsigned>(c1 - c0));
            graph.setTileMapping(v, tile);
            // PopLibs' MultiUpdateOp: numWorkerContexts x the busiest worker + a supervisor
            // part of kMultiUpdateOpSupervisor tile cycles, shared here by the workers.
            const std::uint64_t cycles =
                kind == Update::Write
                    ? pl::cycles::multiSliceWorker(target, type, c1 - c0, n)
                    : pl::cycles::multiUpdateOpWorker(target, type, c1 - c0, n,
                                                      kind == Update::Add) +
                          (pl::cycles::kMultiUpdateOpSupervisor + workers - 1) / workers;
            graph.setPerfEstimate(v, cycles);
        }
    });
    prog.add(poplar::program::Execute(cs, {di}));
    if (kind != Update::Write)
        di.addFlops(std::uint64_t(n) * elems * (kind == Update::Add ? 2 : 1));
}

} // namespace

Tensor createSliceableTensor(poplar::Graph& graph, const poplar::Type& type,
                             const std::vector<std::size_t>& shape,
                             const std::vector<std::size_t>& dims,
                             const std::vector<std::size_t>& sizes, const SlicePlan& plan,
                             const poplar::OptionFlags& options,
                             const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(type, shape, dims, sizes, options),
                              "createSliceableTensor");
    checkType("createSliceableTensor", type, "the tensor");
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
    checkType("createSliceTensor", type, "the tensor");
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
    poputil::mapTensorLinearly(graph, t);
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
    checkType(api, t.elementType(), "tensor '" + t.getName() + "'");
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
    // A part whose entries are all past the table's end holds nothing and takes no tile.
    const std::size_t epp = p.entriesPerPart();
    const unsigned parts = static_cast<unsigned>((entries + epp - 1) / epp);
    // With several parts each fills its own partial slices; the second stage picks among them.
    Tensor partials;
    if (parts > 1)
        partials = graph.addVariable(type, {parts, n, elems}, {di, "partials"});
    poplar::ComputeSet cs = graph.addComputeSet({di, api});
    const std::string sliceType = poputil::templateVertex("popops::MultiSlice", type);
    forEachPiece(p, [&](unsigned part, unsigned, std::size_t r0, std::size_t r1, std::size_t c0,
                        std::size_t c1, unsigned tile) {
        const Tensor dst = parts > 1 ? partials[part].slice(c0, c1, 1) : sub.slice(c0, c1, 1);
        if (parts > 1)
            graph.setTileMapping(dst, tile);
        const Tensor base = table.slice(r0, r1, 0).slice(c0, c1, 1).flatten();
        for (const auto& [i0, i1] : split(n, workers)) {
            poplar::VertexRef v = graph.addVertex(cs, sliceType);
            graph.connect(v["offsets"], idx.slice(i0, i1));
            graph.connect(v["baseT"], base);
            graph.connect(v["subT"], dst.slice(i0, i1, 0).flatten());
            graph.setInitialValue(v["baseOffset"], static_cast<unsigned>(r0));
            graph.setInitialValue(v["numBaseElements"], static_cast<unsigned>(r1 - r0));
            graph.setInitialValue(v["regionSize"], static_cast<unsigned>(c1 - c0));
            graph.setTileMapping(v, tile);
            graph.setPerfEstimate(v, pl::cycles::multiSliceWorker(target, type, c1 - c0, i1 - i0));
        }
    });
    prog.add(poplar::program::Execute(cs, {di}));
    if (parts > 1) {
        poplar::ComputeSet pick = graph.addComputeSet({di, api + "/partials"});
        const std::string pickType = poputil::templateVertex("popops::MultiSlicePartials", type);
        const std::size_t epb = p.elemsPerBlock();
        for (unsigned block = 0; block < p.unslicedSplit; ++block) {
            const std::size_t c0 = block * epb, c1 = std::min(elems, c0 + epb);
            if (c0 >= c1)
                continue;
            const unsigned tile = p.tileOf(0, block);
            for (const auto& [i0, i1] : split(n, workers)) {
                poplar::VertexRef v = graph.addVertex(pick, pickType);
                graph.connect(v["offsets"], idx.slice(i0, i1));
                graph.connect(v["partials"], partials.slice(i0, i1, 1).slice(c0, c1, 2).flatten());
                graph.connect(v["subT"], sub.slice(i0, i1, 0).slice(c0, c1, 1).flatten());
                graph.setInitialValue(v["entriesPerPart"], static_cast<unsigned>(epp));
                graph.setInitialValue(v["numParts"], parts);
                graph.setInitialValue(v["regionSize"], static_cast<unsigned>(c1 - c0));
                graph.setTileMapping(v, tile);
                graph.setPerfEstimate(v,
                                      pl::cycles::multiSliceWorker(target, type, c1 - c0, i1 - i0));
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
            detail::planEmbedding(graph.getTarget(), t.elementType(), entries, elems, 0.6);
        mapSlices(graph, slicesAsTable(out, dim, elems), p);
        prog.add(poplar::program::Copy(poplar::concat(pieces), out, false, {di}));
    }
    di.addOutput(out);
    return out;
}

void multiUpdate(poplar::Graph& graph, const Tensor& t, const Tensor& s, const Tensor& offsets,
                 const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                 poplar::program::Sequence& prog, const SlicePlan& plan,
                 const poplar::OptionFlags& options, const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, s, offsets, dims, sizes, options),
                              "multiUpdate");
    updateImpl("multiUpdate", graph, t, s, offsets, nullptr, dims, sizes, prog, plan, Update::Write,
               di);
}

void multiUpdateAdd(poplar::Graph& graph, const Tensor& t, const Tensor& s, const Tensor& offsets,
                    const Tensor& scale, const std::vector<std::size_t>& dims,
                    const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                    const SlicePlan& plan, const poplar::OptionFlags& options,
                    const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, s, offsets, scale, dims, sizes, options),
                              "multiUpdateAdd");
    updateImpl("multiUpdateAdd", graph, t, s, offsets, &scale, dims, sizes, prog, plan, Update::Add,
               di);
}

void multiUpdateMax(poplar::Graph& graph, const Tensor& t, const Tensor& s, const Tensor& offsets,
                    const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                    poplar::program::Sequence& prog, const SlicePlan& plan,
                    const poplar::OptionFlags& options, const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, s, offsets, dims, sizes, options),
                              "multiUpdateMax");
    updateImpl("multiUpdateMax", graph, t, s, offsets, nullptr, dims, sizes, prog, plan,
               Update::Max, di);
}

} // namespace popops
