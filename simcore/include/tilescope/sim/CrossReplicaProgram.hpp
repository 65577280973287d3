#pragma once
// The program of a cross-replica collective, for the faces that offer collectives (GCL's
// gcl/Collectives.hpp and PopLibs' popops/Collectives.hpp build theirs with it).

#include "poplar/Graph.hpp"
#include "poplar/Program.hpp"
#include "tilescope/sim/Collectives.hpp"

#include <cstdint>
#include <vector>

namespace tilescope::sim {

/// A program that combines `source` of the replicas of each group of `grouping` over the
/// replicas of `graph` into `destination` of every member (CollectiveKind gives the shapes).
/// `reduceCyclesPerTile` is, per tile of the replica, what reducing one ring step's fragment
/// costs (empty when nothing is reduced). Throws poplar::poplar_error when the groups do not
/// divide the replicas or the tensors' types or element counts do not fit the collective.
class CrossReplicaProgram : public poplar::program::Program {
public:
    CrossReplicaProgram(const poplar::Graph& graph, CollectiveKind kind, ReduceOp op,
                        ReplicaGrouping grouping, const poplar::Tensor& source,
                        const poplar::Tensor& destination,
                        std::vector<std::uint64_t> reduceCyclesPerTile,
                        const poplar::DebugContext& debugContext = {});
};

} // namespace tilescope::sim
