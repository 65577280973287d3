// popops::multiUpdate, multiUpdateAdd and multiUpdateMax, built as PopLibs' planned updates
// (lib/popops/DynamicSlice.cpp, multiUpdateOp with a plan). Each piece of the table (a part of
// the entries x a block of elements) is updated on its tile by MultiUpdate / MultiUpdateOp
// vertices whose workers own a share of its entries and check every index, as PopLibs'
// vertices do. With several lookup groups each group updates its own partials, a copy of the
// table's shape on its tiles, with its share of the indices; the partials are then reduced into
// the table (PopLibs' second stage: a balanced reduction and the update of the base).

#include "common/ElementWiseBuilder.hpp"
#include "popops/Cast.hpp"
#include "popops/DynamicSlice.hpp"
#include "popops/ElementWise.hpp"
#include "popops/MultiSliceLayout.hpp"
#include "popops/Reduce.hpp"
#include "popops/SliceCycles.hpp"
#include "popops/Zero.hpp"

#include <algorithm>
#include <poplar/exceptions.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

namespace pl = tilescope::poplibs;
using namespace detail;
using poplar::Tensor;

namespace {

enum class Update { Write, Add, Max };

void updateImpl(const std::string& api, poplar::Graph& graph, const Tensor& t, const Tensor& s,
                const Tensor& offsets, const Tensor* scale, const std::vector<std::size_t>& dims,
                const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                const SlicePlan& plan, Update kind, pl::PoplibsOpDebugInfo& di) {
    checkSliceType(api, t.elementType(), "tensor '" + t.getName() + "'");
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
    if (kind == Update::Write && p.lookupSplit > 1)
        throw poputil::poplibs_error(
            "popops::" + api + ": the plan splits the lookups " + std::to_string(p.lookupSplit) +
            " ways, which needs an update operation to combine them; plan with "
            "operationForUpdate 'none' for multiUpdate");
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
    // With split lookups each group updates partials of the table's shape: zeros for a sum, a
    // copy of the table for a maximum (so the reduction keeps the table's own values).
    Tensor bases = table.expand({0});
    if (p.lookupSplit > 1) {
        bases = graph.addVariable(type, {p.lookupSplit, entries, elems}, {di, "partials"});
        mapGroupCopies(graph, bases, p);
        if (kind == Update::Add)
            popops::zero(graph, bases, prog, {di, "zeroPartials"});
        else
            prog.add(poplar::program::Copy(table.expand({0}).broadcast(p.lookupSplit, 0), bases,
                                           false, {di}));
    }
    const std::string vertexType =
        kind == Update::Write ? poputil::templateVertex("popops::MultiUpdate", type)
        : kind == Update::Add ? poputil::templateVertex("popops::ScaledMultiUpdateOp", type,
                                                        floating ? poplar::FLOAT : type, "ADD")
                              : poputil::templateVertex("popops::MultiUpdateOp", type, "MAX");
    poplar::ComputeSet cs = graph.addComputeSet({di, api});
    const unsigned workers = target.getNumWorkerContexts();
    for (unsigned g = 0; g < p.lookupSplit; ++g) {
        const auto [first, end] = groupLookups(p, g, n);
        if (first >= end)
            continue;
        const Tensor groupIdx = idx.slice(first, end);
        const Tensor base = bases[p.lookupSplit > 1 ? g : 0];
        for (const auto& piece : tablePieces(p)) {
            const std::size_t c0 = piece.c0, c1 = piece.c1;
            const unsigned tile = p.tileOf(g, piece.part, piece.block);
            // Workers own entries, so no two write the same element; each checks every index.
            for (const auto& [w0, w1] : splitRange(piece.r1 - piece.r0, workers)) {
                const std::size_t r0 = piece.r0 + w0, r1 = piece.r0 + w1;
                poplar::VertexRef v = graph.addVertex(cs, vertexType);
                graph.connect(v["offsets"], groupIdx);
                graph.connect(v["subT"], sub.slice(first, end, 0).slice(c0, c1, 1).flatten());
                graph.connect(v["baseT"], base.slice(r0, r1, 0).slice(c0, c1, 1).flatten());
                if (kind == Update::Add)
                    graph.connect(v["scale"], scaleT);
                graph.setInitialValue(v["baseOffset"], static_cast<unsigned>(r0));
                graph.setInitialValue(v["numBaseElements"], static_cast<unsigned>(r1 - r0));
                graph.setInitialValue(v["regionSize"], static_cast<unsigned>(c1 - c0));
                graph.setTileMapping(v, tile);
                // PopLibs' MultiUpdateOp: numWorkerContexts x the busiest worker + a supervisor
                // part of kMultiUpdateOpSupervisor tile cycles, shared here by the workers.
                const std::size_t lookups = end - first;
                const std::uint64_t cycles =
                    kind == Update::Write
                        ? pl::cycles::multiSliceWorker(target, type, c1 - c0, lookups)
                        : pl::cycles::multiUpdateOpWorker(target, type, c1 - c0, lookups,
                                                          kind == Update::Add) +
                              (pl::cycles::kMultiUpdateOpSupervisor + workers - 1) / workers;
                graph.setPerfEstimate(v, cycles);
            }
        }
    }
    prog.add(poplar::program::Execute(cs, {di}));
    if (p.lookupSplit > 1) {
        // PopLibs' second stage: the groups' partials reduced where the table is stored, then
        // combined with the table by an element-wise operation (updateFinalElemwise).
        const Tensor reduced = graph.clone(table, {di, "reducedPartials"});
        const auto op = kind == Update::Add ? popops::Operation::ADD : popops::Operation::MAX;
        popops::reduceWithOutput(graph, bases, reduced, {0}, popops::ReduceParams(op), prog,
                                 {di, "reducePartials"});
        if (kind == Update::Add)
            popops::addInPlace(graph, table, reduced, prog, {di, "updateBase"});
        else
            popops::maxInPlace(graph, table, reduced, prog, {di, "updateBase"});
    }
    if (kind != Update::Write)
        di.addFlops(std::uint64_t(n) * elems * (kind == Update::Add ? 2 : 1));
}

} // namespace

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
