#include "popops/Collectives.hpp"

#include "popops/CollectiveBuild.hpp"
#include "popops/ElementWiseCycles.hpp"
#include "tilescope/sim/CrossReplicaProgram.hpp"

#include <istream>
#include <ostream>
#include <poplar/exceptions.hpp>
#include <stdexcept>

namespace popops {

namespace {
const char* const kOperatorNames[] = {"ADD",         "MEAN",       "MUL",        "MIN",  "MAX",
                                      "LOGICAL_AND", "LOGICAL_OR", "SQUARE_ADD", "LOCAL"};
}

std::istream& operator>>(std::istream& is, CollectiveOperator& op) {
    std::string name;
    is >> name;
    for (unsigned i = 0; i < sizeof kOperatorNames / sizeof kOperatorNames[0]; ++i)
        if (name == kOperatorNames[i]) {
            op = static_cast<CollectiveOperator>(i);
            return is;
        }
    is.setstate(std::ios::failbit);
    return is;
}

std::ostream& operator<<(std::ostream& os, const CollectiveOperator& op) {
    return os << kOperatorNames[static_cast<unsigned>(op)];
}

} // namespace popops

namespace tilescope::poplibs {

namespace sim = tilescope::sim;
using popops::CollectiveOperator;
using popops::expr::BinaryOpType;

namespace {

sim::ReduceOp reduceOpOf(CollectiveOperator op) {
    return static_cast<sim::ReduceOp>(static_cast<unsigned>(op));
}

sim::CollectiveKind kindOf(Collective k) {
    switch (k) {
    case Collective::AllReduce:
        return sim::CollectiveKind::AllReduce;
    case Collective::ReduceScatter:
        return sim::CollectiveKind::ReduceScatter;
    case Collective::AllGather:
        return sim::CollectiveKind::AllGather;
    case Collective::AllToAll:
        break;
    }
    return sim::CollectiveKind::AllToAll;
}

/// The group size of `grouping` on `graph`, or poplar_error naming `api` for groups that do not
/// divide its replicas.
unsigned groupSizeOf(const poplar::Graph& graph, const sim::ReplicaGrouping& grouping,
                     const std::string& api) {
    const unsigned replicas = graph.getReplicationFactor();
    try {
        grouping.check(replicas);
    } catch (const std::invalid_argument& e) {
        throw poplar::poplar_error(api + ": " + e.what());
    }
    return grouping.groupSize(replicas);
}

/// The element-wise operation a ring step reduces with (SQUARE_ADD squares first, then adds).
bool ringOperation(CollectiveOperator op, BinaryOpType& out) {
    switch (op) {
    case CollectiveOperator::ADD:
    case CollectiveOperator::MEAN:
    case CollectiveOperator::SQUARE_ADD:
        out = BinaryOpType::ADD;
        return true;
    case CollectiveOperator::MUL:
        out = BinaryOpType::MULTIPLY;
        return true;
    case CollectiveOperator::MIN:
        out = BinaryOpType::MINIMUM;
        return true;
    case CollectiveOperator::MAX:
        out = BinaryOpType::MAXIMUM;
        return true;
    case CollectiveOperator::LOGICAL_AND:
        out = BinaryOpType::LOGICAL_AND;
        return true;
    case CollectiveOperator::LOGICAL_OR:
        out = BinaryOpType::LOGICAL_OR;
        return true;
    case CollectiveOperator::LOCAL:
        break;
    }
    return false;
}

} // namespace

void addCollective(poplar::Graph& graph, Collective kind, CollectiveOperator op,
                   const poplar::Tensor& data, const poplar::Tensor& destination,
                   poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                   const std::string& api, const sim::ReplicaGrouping& grouping) {
    const unsigned replicas = groupSizeOf(graph, grouping, api);
    const bool logical =
        op == CollectiveOperator::LOGICAL_AND || op == CollectiveOperator::LOGICAL_OR;
    const bool reduces = kind == Collective::AllReduce || kind == Collective::ReduceScatter;
    if (reduces && op != CollectiveOperator::LOCAL &&
        logical != (data.elementType() == poplar::BOOL))
        throw poplar::poplar_error(api + ": operator " + sim::reduceOpName(reduceOpOf(op)) +
                                   " does not apply to " + data.elementType().toString() +
                                   " data ('" + data.getName() + "')");
    // Each ring step reduces, on every tile holding data, the fragment it received: PopLibs'
    // in-place BinaryOp1D estimate of the fragment (1 / replicas of the tile's elements).
    std::vector<std::uint64_t> reduceCycles;
    BinaryOpType binary{};
    if (reduces && ringOperation(op, binary)) {
        const auto mapping = graph.getTileMapping(data, false);
        reduceCycles.assign(graph.getTarget().getNumTiles(), 0);
        for (std::size_t t = 0; t < mapping.size(); ++t) {
            std::uint64_t elements = 0;
            for (const auto& i : mapping[t])
                elements += i.size();
            if (elements)
                reduceCycles[t] =
                    cycles::binaryOp1DVertexCycles(graph.getTarget(), binary, data.elementType(),
                                                   true, (elements + replicas - 1) / replicas);
        }
    }
    prog.add(sim::CrossReplicaProgram(graph, kindOf(kind), reduceOpOf(op), grouping, data,
                                      destination, std::move(reduceCycles), debugContext));
}

poplar::Tensor makeCollectiveOutput(poplar::Graph& graph, Collective kind,
                                    const poplar::Tensor& data,
                                    const poplar::DebugContext& debugContext,
                                    const sim::ReplicaGrouping& grouping) {
    const unsigned replicas = groupSizeOf(graph, grouping, "collective output");
    switch (kind) {
    case Collective::AllReduce:
        return graph.clone(data, {debugContext, "allReduceOut"});
    case Collective::AllToAll:
        return graph.clone(data, {debugContext, "allToAllOut"});
    case Collective::AllGather:
        return graph.cloneN(data, replicas, {debugContext, "allGatherOut"});
    case Collective::ReduceScatter:
        break;
    }
    const std::size_t n = (data.numElements() + replicas - 1) / replicas;
    poplar::Tensor out =
        graph.addVariable(data.elementType(), {n}, {debugContext, "reduceScatterOut"});
    // Element i sits where element i of `data` does (its part of the ring's fragments).
    const auto flat = data.flatten();
    const auto mapping = graph.getTileMapping(flat, false);
    for (std::size_t t = 0; t < mapping.size(); ++t)
        for (const auto& i : mapping[t])
            if (i.begin() < n)
                graph.setTileMapping(out.slice(i.begin(), std::min<std::size_t>(i.end(), n)),
                                     static_cast<unsigned>(t));
    return out;
}

} // namespace tilescope::poplibs

namespace popops {

namespace tp = tilescope::poplibs;

poplar::Tensor replicatedAllReduce(poplar::Graph& graph, const poplar::Tensor& data,
                                   CollectiveOperator op, poplar::program::Sequence& prog,
                                   const poplar::DebugContext& debugContext,
                                   const poplar::OptionFlags&) {
    poplar::Tensor out =
        tp::makeCollectiveOutput(graph, tp::Collective::AllReduce, data, debugContext);
    tp::addCollective(graph, tp::Collective::AllReduce, op, data, out, prog, debugContext,
                      "popops::replicatedAllReduce");
    return out;
}

void replicatedAllReduceWithOutput(poplar::Graph& graph, const poplar::Tensor& data,
                                   poplar::Tensor& output, CollectiveOperator op,
                                   poplar::program::Sequence& prog,
                                   const poplar::DebugContext& debugContext,
                                   const poplar::OptionFlags&) {
    tp::addCollective(graph, tp::Collective::AllReduce, op, data, output, prog, debugContext,
                      "popops::replicatedAllReduceWithOutput");
}

void replicatedAllReduceInPlace(poplar::Graph& graph, poplar::Tensor& data, CollectiveOperator op,
                                poplar::program::Sequence& prog,
                                const poplar::DebugContext& debugContext,
                                const poplar::OptionFlags&) {
    tp::addCollective(graph, tp::Collective::AllReduce, op, data, data, prog, debugContext,
                      "popops::replicatedAllReduceInPlace");
}

poplar::Tensor replicatedReduceScatter(poplar::Graph& graph, const poplar::Tensor& data,
                                       CollectiveOperator op, poplar::program::Sequence& prog,
                                       const poplar::DebugContext& debugContext,
                                       const poplar::OptionFlags&) {
    poplar::Tensor out =
        tp::makeCollectiveOutput(graph, tp::Collective::ReduceScatter, data, debugContext);
    tp::addCollective(graph, tp::Collective::ReduceScatter, op, data, out, prog, debugContext,
                      "popops::replicatedReduceScatter");
    return out;
}

poplar::Tensor replicatedAllGather(poplar::Graph& graph, const poplar::Tensor& data,
                                   poplar::program::Sequence& prog,
                                   const poplar::DebugContext& debugContext,
                                   const poplar::OptionFlags&) {
    poplar::Tensor out =
        tp::makeCollectiveOutput(graph, tp::Collective::AllGather, data, debugContext);
    tp::addCollective(graph, tp::Collective::AllGather, CollectiveOperator::LOCAL, data, out, prog,
                      debugContext, "popops::replicatedAllGather");
    return out;
}

poplar::Tensor allToAllPersonalizedExchange(poplar::Graph& graph, const poplar::Tensor& input,
                                            poplar::program::Sequence& sequence,
                                            const poplar::DebugContext& debugContext,
                                            const poplar::OptionFlags&) {
    const std::string api = "popops::allToAllPersonalizedExchange";
    const unsigned replicas = graph.getReplicationFactor();
    if (input.rank() == 0 || input.dim(0) != replicas)
        throw poplar::poplar_error(api + ": '" + input.getName() + "' needs a first dimension of " +
                                   std::to_string(replicas) +
                                   " (one slice for each replica), got shape " +
                                   input.shapeToString());
    poplar::Tensor out =
        tp::makeCollectiveOutput(graph, tp::Collective::AllToAll, input, debugContext);
    tp::addCollective(graph, tp::Collective::AllToAll, CollectiveOperator::LOCAL, input, out,
                      sequence, debugContext, api);
    return out;
}

} // namespace popops
