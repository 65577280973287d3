#pragma once

#include "tilescope/report/ProfileReader.hpp"

#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tilescope::gui {

/// The program tree's nodes met by flame windows, kept for the view's life: a run repeats the
/// same programs, so windows soon meet no new ones. Frames only read the cache (path(), entry());
/// programs it lacks are read off the frame by resolve(), a batch query per tree level for all of
/// them. Thread-safe; shared by the Execution Trace model and its workers.
class ProgramPathCache {
public:
    /// The path of `programId` (root first); empty unless every program on it is cached.
    std::vector<report::ProgramPathEntry> path(std::int64_t programId) const;
    /// The ids on the path of `programId` (root first) into `out`, for building rows without
    /// copying names; false (and `out` empty) unless the path is known.
    bool pathIds(std::int64_t programId, std::vector<std::int64_t>& out) const;
    /// True when the path of `programId` is known (cached, or the program does not exist).
    bool knows(std::int64_t programId) const;
    /// Reads the nodes of `programIds` and of their ancestors that are not cached yet.
    void resolve(const report::ProfileReader& reader, const std::vector<std::int64_t>& programIds);
    /// The cached entry of a program on some path, for labels (empty name if unknown).
    report::ProgramPathEntry entry(std::int64_t programId) const;

private:
    /// Path of `programId` into `out`; false when a program on it is not cached. Needs mutex_.
    bool pathLocked(std::int64_t programId, std::vector<report::ProgramPathEntry>* out) const;

    mutable std::mutex mutex_;
    std::unordered_map<std::int64_t, report::ProgramNode> nodes_;
    std::unordered_set<std::int64_t> absent_; // ids the program table does not hold
};

/// One bar of a flame row: cycles [firstCycle, endCycle) spent under one program at one depth of
/// the program tree.
struct FlameSpan {
    std::uint64_t firstCycle = 0;
    std::uint64_t endCycle = 0;
    std::int64_t programId = -1;
    double steps = 0;
};

/// Flame rows of a cycle window: row d holds the spans of the programs at depth d (0: the roots)
/// on the path of each executed step. Zoomed in, the units are the executed steps; zoomed out
/// they are run_lod buckets, each under the program of the first step that starts in it, so a
/// window reads at most a few thousand rows. Adjacent units under the same program merge. Paths
/// come from the cache only: building the rows never reads the program tree.
struct FlameRows {
    std::vector<std::vector<FlameSpan>> rows;
    /// Programs of the window whose paths were not cached: their units are left out until the
    /// model has resolved them and fetched the window again.
    std::vector<std::int64_t> missing;

    /// Builds the rows of [firstCycle, endCycle) of `run`; `lodLevel` < 0 reads executed steps,
    /// otherwise that pyramid level.
    static FlameRows fetch(const report::ProfileReader& reader, const report::RunRecord& run,
                           std::uint64_t firstCycle, std::uint64_t endCycle, std::int64_t lodLevel,
                           std::int64_t stepLimit, ProgramPathCache& cache);
};

} // namespace tilescope::gui
