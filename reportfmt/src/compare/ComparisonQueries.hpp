#pragma once
// Bulk reads for comparing reports, private to reportfmt: whole tables in one query each (the
// paging readers would cost a statement per row). Used only by the structural and host-trace
// comparisons, which are computed on demand.

#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::report::compare {

struct ProgramRow {
    std::int64_t id = 0;
    std::optional<std::int64_t> parentId;
    std::int64_t position = 0;
    std::string kind;
    std::string name;
    std::string debugPath;
    std::uint64_t codeBytes = 0;
};
/// Every program, in id order.
std::vector<ProgramRow> readPrograms(const ProfileReader& reader);

struct StepRow {
    std::int64_t id = 0;
    std::int64_t programId = 0;
    std::string kind;
    std::string computeSet; // empty when the step has none
    std::uint64_t estimatedCycles = 0;
    std::uint64_t notAlwaysLiveBytes = 0;
};
/// Every lowered step, in id order.
std::vector<StepRow> readSteps(const ProfileReader& reader);

struct RunStepRow {
    std::int64_t stepId = 0;
    std::uint64_t cycles = 0;
};
/// Step id and cycles of every executed step of a run, in execution order.
std::vector<RunStepRow> readRunStepCycles(const ProfileReader& reader, const RunRecord& run);

/// An operation as the reader reads it (variableIds left empty), with the bytes of its variables.
struct OperationRow : OperationRecord {
    std::uint64_t variableBytes = 0;
};
/// Every operation in id order, with its programs and the bytes of its variables.
std::vector<OperationRow> readOperations(const ProfileReader& reader);

struct EventNameRow {
    std::string name;
    std::uint64_t count = 0;
    std::uint64_t timedCount = 0;
    std::uint64_t totalNs = 0;
};
/// Host events grouped by name.
std::vector<EventNameRow> readEventStatistics(const HostTraceReader& reader);

} // namespace tilescope::report::compare
