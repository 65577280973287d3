#pragma once
// Comparing what two reports are made of: the program tree, the operations, the lowered steps
// (liveness) and the executed steps of a run. Items are matched by identity, never by row id or
// position, so a report with one more layer or a bigger loop still lines up (the rules are in
// reportfmt/README.md, "Comparing two reports").

#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ReportComparison.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::report {

/// A node of the union of both program trees. `path` is the program's path of names from its
/// root (a name repeated among siblings gets "#k" for its k-th repeat); a program matches when
/// path and debug path are equal. Cycles are inclusive of the node's subtree: `estimatedCycles`
/// from the compile profile, `executedCycles` from the compared runs. `parentRow` indexes the
/// row of the parent in ProgramComparison::rows (empty for roots), so a tree model can be built.
struct ProgramDelta {
    std::string path;
    std::string name;
    std::string debugPath;
    std::string kind;
    MatchStatus status = MatchStatus::Matched;
    std::optional<std::int64_t> sourceId;
    std::optional<std::int64_t> targetId;
    std::optional<std::size_t> parentRow;
    std::uint32_t depth = 0;
    ComparedValue codeBytes;
    ComparedValue estimatedCycles;
    ComparedValue executedCycles;
};

/// Rows are the source tree in pre-order (matched and removed nodes), then the nodes only the
/// target has, in the target's pre-order; every program of both reports is one row.
struct ProgramComparison {
    std::vector<ProgramDelta> rows;
    std::size_t matched = 0;
    std::size_t added = 0;
    std::size_t removed = 0;
};

/// An operation (PopLibs call, layer) in both reports, matched by name and debug path. Cycles
/// and code are summed over the programs it created and their subtrees, memory over its
/// variables; FLOPs are in a side only when that report recorded them.
struct OperationDelta {
    std::string name;
    std::string debugPath;
    std::string layer;
    MatchStatus status = MatchStatus::Matched;
    std::optional<std::int64_t> sourceId;
    std::optional<std::int64_t> targetId;
    ComparedValue estimatedCycles;
    ComparedValue executedCycles;
    ComparedValue codeBytes;
    ComparedValue variableBytes;
    ComparedValue flops; // inSource/inTarget false where a report has no estimate
};

/// Rows: the source's operations in id order, then those only the target has.
struct OperationComparison {
    std::vector<OperationDelta> rows;
    std::size_t matched = 0;
    std::size_t added = 0;
    std::size_t removed = 0;
};

/// One row of two aligned step sequences. `source`/`target` are positions in each sequence
/// (step ids for program steps, positions in the run for executed steps); `key` indexes the
/// comparison's key labels. Values are bytes (liveness) or cycles (execution); a missing side
/// counts as 0.
struct AlignedStep {
    std::optional<std::int64_t> source;
    std::optional<std::int64_t> target;
    std::int32_t key = 0;
    std::uint64_t sourceValue = 0;
    std::uint64_t targetValue = 0;

    MatchStatus status() const {
        return source && target ? MatchStatus::Matched
                                : (source ? MatchStatus::Removed : MatchStatus::Added);
    }
    std::int64_t difference() const {
        return static_cast<std::int64_t>(targetValue) - static_cast<std::int64_t>(sourceValue);
    }
};

/// Two step sequences aligned by step identity: (program path, compute set name, step kind).
struct StepAlignment {
    std::vector<AlignedStep> steps;
    std::size_t matched = 0;
    std::size_t added = 0;
    std::size_t removed = 0;
    ComparedValue total; // sum of values on each side
    /// Indexes into `steps`, largest difference (regression) first, ties in sequence order.
    std::vector<std::uint32_t> byRegression;
};

/// The not-always-live bytes of every program step of both reports, aligned.
struct LivenessComparison {
    StepAlignment alignment;
    ComparedValue peakNotAlwaysLiveBytes; // the largest step value on each side
};

/// The executed steps of one run of each report, aligned, with cycles per step.
struct ExecutionComparison {
    std::optional<RunRecord> sourceRun;
    std::optional<RunRecord> targetRun;
    StepAlignment alignment;
};

/// The structural comparisons of two reports. Each is computed when first asked for and kept:
/// the program trees and step identities are read once and shared. `sourceRun`/`targetRun` are
/// run positions (0: the first run) used for executed cycles and the execution alignment; a
/// report without that run contributes zero cycles. Holds references to the readers, which
/// must outlive it; like them, not thread-safe.
class StructureComparison {
public:
    StructureComparison(const ProfileReader& source, const ProfileReader& target,
                        std::size_t sourceRun = 0, std::size_t targetRun = 0);
    ~StructureComparison();
    StructureComparison(const StructureComparison&) = delete;
    StructureComparison& operator=(const StructureComparison&) = delete;

    const ProgramComparison& programs();
    const OperationComparison& operations();
    const LivenessComparison& liveness();
    const ExecutionComparison& execution();

    /// Text of a step key: "path/of/program | compute set | kind"; a part the step has none of
    /// (no compute set: an exchange, a sync) is left out, not shown empty.
    std::string keyLabel(std::int32_t key) const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace tilescope::report
