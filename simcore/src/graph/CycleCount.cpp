#include "poplar/CycleCount.hpp"

#include "poplar/exceptions.hpp"
#include "tilescope/sim/ProgramTree.hpp"

namespace poplar {

namespace sim = tilescope::sim;
using tilescope::capture::ProgramKind;

namespace {

/// An UNSIGNED_INT[2] counter variable on `tile`.
Tensor counterOn(Graph& graph, unsigned tile, const DebugContext& debugContext, const char* what) {
    const unsigned numTiles = graph.getTarget().getNumTiles();
    if (tile >= numTiles)
        throw index_error(std::string(what) + ": tile " + std::to_string(tile) +
                          " is out of range: the graph has " + std::to_string(numTiles) + " tiles");
    Tensor counter = graph.addVariable(UNSIGNED_INT, {2}, debugContext);
    graph.setTileMapping(counter, tile);
    return counter;
}

/// A sequence node that writes the run's cycle counter into `counter` (a stamp), or, when
/// `children` is not empty, the cycles they take.
sim::ProgramNodePtr counterNode(Graph& graph, const Tensor& counter, std::string name,
                                std::vector<sim::ProgramNodePtr> children, bool stamp) {
    auto n = std::make_shared<sim::ProgramNode>();
    n->kind = ProgramKind::Sequence;
    n->name = std::move(name);
    n->children = std::move(children);
    n->cycleCounter = counter.view();
    n->cycleStamp = stamp;
    n->graph = graph.model().get();
    return n;
}

} // namespace

Tensor cycleCount(Graph& graph, program::Sequence& prog, unsigned tile, SyncType syncType,
                  const DebugContext& debugContext) {
    Tensor counter = counterOn(graph, tile, debugContext, "cycleCount");
    auto& outer = *prog.node();
    auto counted =
        counterNode(graph, counter, outer.name + "/cycleCount", std::move(outer.children), false);
    outer.children = {program::Sync(syncType, debugContext).node(), counted};
    return counter;
}

Tensor cycleCount(Graph& graph, program::Sequence& prog, unsigned tile,
                  const DebugContext& debugContext) {
    return cycleCount(graph, prog, tile, SyncType::INTERNAL, debugContext);
}

std::vector<Tensor> cycleStamp(Graph& graph, program::Sequence& prog,
                               const std::vector<unsigned>& tiles, SyncType syncType,
                               const DebugContext& debugContext) {
    std::vector<Tensor> stamps;
    for (unsigned tile : tiles)
        stamps.push_back(counterOn(graph, tile, debugContext, "cycleStamp"));
    prog.add(program::Sync(syncType, debugContext));
    for (const auto& stamp : stamps)
        prog.node()->children.push_back(
            counterNode(graph, stamp, prog.node()->name + "/cycleStamp", {}, true));
    return stamps;
}

Tensor cycleStamp(Graph& graph, program::Sequence& prog, unsigned tile, SyncType syncType,
                  const DebugContext& debugContext) {
    return cycleStamp(graph, prog, std::vector<unsigned>{tile}, syncType, debugContext).front();
}

} // namespace poplar
