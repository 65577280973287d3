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

/// The collective a CrossReplica program performs, with GCL's shapes: AllReduce keeps the
/// shape; ReduceScatter gives each replica ceil(n / replicas) elements of the flattened
/// reduction (replica r the r-th part, zero past the end); AllGather gives {replicas, shape...}.
enum class CollectiveKind : std::uint8_t { AllReduce, ReduceScatter, AllGather };

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

/// Elements of a replica's result for `inputElements` elements in, over `replicas` replicas.
std::uint64_t collectiveOutputElements(CollectiveKind k, std::uint64_t inputElements,
                                       unsigned replicas);

/// Computes a collective on the host. `inputs[r]` holds replica r's `inputElements` elements
/// of type `type` (device bytes); `outputs[r]` receives its collectiveOutputElements. The
/// reduction runs in ring order from replica 0, each partial rounded to `type` as the
/// device's partials are. Throws std::invalid_argument for a logical reduction of a non-BOOL
/// type or an arithmetic one of BOOL.
void computeCollective(CollectiveKind kind, ReduceOp op, ElementType type,
                       std::uint64_t inputElements, const std::vector<const std::byte*>& inputs,
                       const std::vector<std::byte*>& outputs);

} // namespace tilescope::sim
