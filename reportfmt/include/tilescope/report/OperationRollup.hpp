#pragma once
// Operations rolled up as PopVision's Operations view shows them: each operation's own totals
// ("self") and its totals including every operation nested in it ("inclusive").

#include "tilescope/report/ProfileReader.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::report {

/// Operations nested by debug path, with each operation's totals including its descendants'.
/// The parent of an operation is the operation whose path (debug path, or name when there is
/// none) is the longest proper prefix of its own ending at a '/' ("encoder/attention" holds
/// "encoder/attention/head0/scores" when there is no "encoder/attention/head0"); equal paths are
/// siblings. Computed in one pass over the flat totals (ProfileReader::operationTotals), so
/// inclusive figures assume, as the simulator writes them, that a program or variable belongs
/// to one operation only. Vectors are parallel to the input.
struct OperationRollup {
    struct Totals {
        std::uint64_t steps = 0;
        std::uint64_t cycles = 0;
        std::uint64_t codeBytes = 0;
        std::uint64_t variableBytes = 0;
        std::optional<std::uint64_t> flops; // set when the operation or a descendant has FLOPs
    };

    std::vector<int> parent; // index into the input, -1 for a top-level operation
    std::vector<int> depth;
    std::vector<int> descendants;
    std::vector<Totals> self;      // the operation's own figures
    std::vector<Totals> inclusive; // self plus every descendant's self

    static OperationRollup compute(const std::vector<OperationTotals>& operations);
    /// The path an operation nests by.
    static const std::string& pathOf(const OperationRecord& operation);
};

/// Every operation of `reader`'s report with its totals, and their roll-up.
struct RolledUpOperations {
    std::vector<OperationTotals> operations;
    OperationRollup rollup;
};
RolledUpOperations rollUpOperations(const ProfileReader& reader);

} // namespace tilescope::report
