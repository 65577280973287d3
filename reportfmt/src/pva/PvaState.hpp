#pragma once
// The shared report state of the pva face's objects, and what its source files share: each file
// holds the objects of one part of libpva's API (programs, memory, compilation, execution, the
// report), all over the one ReportState.

#include "pva/pva.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ReportError.hpp"

#include <unordered_map>

namespace pva::detail {

/// Runs `f`, turning the reader's ReportError into the face's pva::error (same message).
template <typename F> auto guarded(F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const tilescope::report::ReportError& e) {
        throw error(e.what());
    }
}

/// The rows the face reads from the reader at a time.
constexpr std::int64_t kPage = 4096;

/// What every pva object shares: the reader and small caches of plain records. It caches only
/// plain records (never objects that point back at it), so there are no reference cycles.
struct ReportState : std::enable_shared_from_this<ReportState> {
    struct ProgramInfo {
        std::string name, kind, debugPath;
    };
    struct StepInfo {
        std::int64_t programId = 0;
        std::string kind;
    };

    std::shared_ptr<tilescope::report::ProfileReader> reader;
    std::unordered_map<std::int64_t, ProgramInfo> programs;
    std::unordered_map<std::int64_t, StepInfo> steps;
    std::unordered_map<std::int64_t, std::string> categoryNames;

    explicit ReportState(std::shared_ptr<tilescope::report::ProfileReader> r);

    tilescope::report::ProfileReader& r() const { return *reader; }

    std::shared_ptr<Program> makeProgram(const tilescope::report::ProgramRecord& p);
    std::shared_ptr<Program> program(std::int64_t id);
    /// The lowered program of a step: the step's kind, the name of the program it came from.
    std::shared_ptr<Program> loweredProgram(std::int64_t programId, const std::string& kind);
    std::shared_ptr<Program> stepProgram(std::int64_t stepIndex);
    Variable makeVariable(const tilescope::report::VariableRecord& v);
    static ComputeSet makeComputeSet(const tilescope::report::ComputeSetRecord& c);
    Target target() const;
    /// Every tile with its memory by category (PvaMemory.cpp, beside the categories' table).
    std::vector<Tile> tiles() const;
    tilescope::report::RunRecord runRecord(std::int64_t firstRow, std::uint64_t numSteps) const;
};

/// The reader behind a report's state.
tilescope::report::ProfileReader& readerOf(const StatePtr& state);

} // namespace pva::detail
