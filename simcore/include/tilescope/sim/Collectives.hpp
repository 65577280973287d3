#pragma once
// Cross-replica collectives as the simulator computes them: which collective, which reduction,
// and the host computation over every replica's data. GCL's and PopLibs' faces build program
// nodes of kind CrossReplica from these; the engine runs them across its replicas.

#include "tilescope/sim/ElementType.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::sim {

/// The collective a CrossReplica program performs, with GCL's shapes over a group of k
/// replicas: AllReduce keeps the shape; ReduceScatter gives each member ceil(n / k) elements of
/// the flattened reduction (the member of rank r the r-th part, zero past the end); AllGather
/// gives {k, shape...}; AllToAll keeps the shape, its data cut into k equal blocks, and block i
/// of the member of rank j receives block j of the member of rank i.
enum class CollectiveKind : std::uint8_t { AllReduce, ReduceScatter, AllGather, AllToAll };

/// The reduction of a collective, in the order of GCL's CollectiveOperator. Local keeps each
/// replica's own value; SquareAdd sums squares.
enum class ReduceOp : std::uint8_t {
    Add,
    Mean,
    Mul,
    Min,
    Max,
    LogicalAnd,
    LogicalOr,
    SquareAdd,
    Local,
};

std::string collectiveKindName(CollectiveKind k);
std::string reduceOpName(ReduceOp op);

/// The groups of replicas a collective runs within, as GCL's CommGroup and PopXL's replica
/// grouping describe them: groups of `size` replicas whose members are `stride` apart, the
/// replicas cut into blocks of size x stride. Replica r is in group (r / (size x stride)) x
/// stride + r % stride at rank (r % (size x stride)) / stride. {R, 1} is one group of every
/// replica; ORTHOGONAL groups of k are {k, R / k}. A size of 0 means every replica.
struct ReplicaGrouping {
    unsigned size = 0;
    unsigned stride = 1;

    /// The group size for `replicas` replicas (size, or `replicas` when size is 0).
    unsigned groupSize(unsigned replicas) const { return size == 0 ? replicas : size; }
    /// Members of every group in rank order, for `replicas` replicas.
    std::vector<std::vector<unsigned>> groups(unsigned replicas) const;
    /// Throws std::invalid_argument unless the groups cut `replicas` replicas exactly.
    void check(unsigned replicas) const;
};

/// Elements of a replica's result for `inputElements` elements in, over a group of `replicas`.
std::uint64_t collectiveOutputElements(CollectiveKind k, std::uint64_t inputElements,
                                       unsigned replicas);

/// Computes a collective on the host over one group. `inputs[r]` holds the `inputElements`
/// elements of type `type` (device bytes) of the member of rank r; `outputs[r]` receives its
/// collectiveOutputElements. The reduction runs in ring order from rank 0, each partial rounded
/// to `type` as the device's partials are. Throws std::invalid_argument for a logical
/// reduction of a non-BOOL type, an arithmetic one of BOOL, or an all-to-all whose elements do
/// not divide into one block per member.
void computeCollective(CollectiveKind kind, ReduceOp op, ElementType type,
                       std::uint64_t inputElements, const std::vector<const std::byte*>& inputs,
                       const std::vector<std::byte*>& outputs);

} // namespace tilescope::sim
