#pragma once
// The reductions of cross-replica collectives (PopLibs' popops/CollectiveTypes.hpp; GCL uses
// the same enumeration as gcl::CollectiveOperator).

#include <iosfwd>
#include <string>

namespace popops {

/// How a collective combines the replicas' values: ADD sums, MEAN sums and divides by the
/// number of replicas, MUL multiplies, MIN and MAX pick, LOGICAL_AND and LOGICAL_OR combine BOOL
/// data, SQUARE_ADD sums squares, LOCAL keeps each replica's own value.
enum class CollectiveOperator {
    ADD,
    MEAN,
    MUL,
    MIN,
    MAX,
    LOGICAL_AND,
    LOGICAL_OR,
    SQUARE_ADD,
    LOCAL,
};

/// Reads an operator by its name ("ADD", "MEAN", ...); sets failbit for an unknown name.
std::istream& operator>>(std::istream& is, CollectiveOperator& op);
std::ostream& operator<<(std::ostream& os, const CollectiveOperator& op);

} // namespace popops
