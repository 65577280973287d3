#pragma once

#include "tilescope/report/ProfileReader.hpp"

#include <climits>
#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tilescope::gui {

/// The program tree's nodes met by flame windows, kept for the view's life: a run repeats the
/// same programs, so windows soon meet no new ones. Frames only read the cache (path(), entry());
/// programs it lacks are read off the frame by resolve(), a batch query per tree level for all of
/// them. It also keeps the program of each run_lod bucket a window has read (lodPrograms()): each
/// costs a random lookup of the bucket's first step, and zoomed out those lookups are most of a
/// window's time, so a pan reads only the buckets it uncovers and a return to a zoom none.
/// Thread-safe; shared by the Execution Trace model and its workers.
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
    /// The non-empty buckets [firstBucket, lastBucket] of pyramid level `level` of `run` (buckets
    /// of `bucketCycles`) with their first step's program; reads from `reader` only the span of
    /// buckets not met before. Levels of more than kMaxCachedBuckets buckets are not kept.
    std::vector<report::RunLodProgram> lodPrograms(const report::ProfileReader& reader,
                                                   const report::RunRecord& run, std::int64_t level,
                                                   std::int64_t firstBucket,
                                                   std::int64_t lastBucket, double bucketCycles);
    static constexpr std::int64_t kMaxCachedBuckets = std::int64_t(1) << 18;

private:
    /// Path of `programId` into `out`; false when a program on it is not cached. Needs mutex_.
    bool pathLocked(std::int64_t programId, std::vector<report::ProgramPathEntry>* out) const;

    mutable std::mutex mutex_;
    std::unordered_map<std::int64_t, report::ProgramNode> nodes_;
    std::unordered_set<std::int64_t> absent_; // ids the program table does not hold
    // Per (run id, level): every bucket of the level, read or not (programId kUnread).
    static constexpr std::int64_t kUnread = INT64_MIN;
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<report::RunLodProgram>> lod_;
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
/// they are run_lod buckets, each under the program of the first step that starts in it, one
/// level coarser than the columns' (at most one bucket per pixel), so a window reads at most
/// about a thousand rows. Adjacent units under the same program merge. Paths
/// come from the cache only: building the rows never reads the program tree.
struct FlameRows {
    std::vector<std::vector<FlameSpan>> rows;
    /// Programs of the window whose paths were not cached: their units are left out until the
    /// model has resolved them and fetched the window again.
    std::vector<std::int64_t> missing;

    /// Builds the rows of [firstCycle, endCycle) of `run`; `lodLevel` < 0 reads executed steps,
    /// otherwise the level above `lodLevel` (the columns' level) when stored, else `lodLevel`.
    static FlameRows fetch(const report::ProfileReader& reader, const report::RunRecord& run,
                           std::uint64_t firstCycle, std::uint64_t endCycle, std::int64_t lodLevel,
                           std::int64_t stepLimit, ProgramPathCache& cache);
};

} // namespace tilescope::gui
