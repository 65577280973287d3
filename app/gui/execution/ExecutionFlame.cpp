#include "ExecutionFlame.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace tilescope::gui {

namespace {
constexpr std::size_t kMaxProgramDepth = 256; // guards against cycles in a damaged tree
} // namespace

bool ProgramPathCache::pathLocked(std::int64_t programId,
                                  std::vector<report::ProgramPathEntry>* out) const {
    if (out)
        out->clear();
    for (std::size_t depth = 0; programId >= 0 && depth < kMaxProgramDepth; ++depth) {
        const auto it = nodes_.find(programId);
        if (it == nodes_.end())
            return absent_.count(programId) != 0;
        if (out)
            out->push_back({it->second.id, it->second.kind, it->second.name});
        programId = it->second.parentId;
    }
    if (out)
        std::reverse(out->begin(), out->end());
    return true;
}

std::vector<report::ProgramPathEntry> ProgramPathCache::path(std::int64_t programId) const {
    std::vector<report::ProgramPathEntry> p;
    std::lock_guard lock(mutex_);
    if (!pathLocked(programId, &p))
        p.clear();
    return p;
}

bool ProgramPathCache::pathIds(std::int64_t programId, std::vector<std::int64_t>& out) const {
    out.clear();
    std::lock_guard lock(mutex_);
    for (std::size_t depth = 0; programId >= 0 && depth < kMaxProgramDepth; ++depth) {
        const auto it = nodes_.find(programId);
        if (it == nodes_.end()) {
            const bool absent = absent_.count(programId) != 0;
            out.clear();
            return absent;
        }
        out.push_back(programId);
        programId = it->second.parentId;
    }
    std::reverse(out.begin(), out.end());
    return true;
}

bool ProgramPathCache::knows(std::int64_t programId) const {
    std::lock_guard lock(mutex_);
    return pathLocked(programId, nullptr);
}

void ProgramPathCache::resolve(const report::ProfileReader& reader,
                               const std::vector<std::int64_t>& programIds) {
    std::vector<std::int64_t> want = programIds;
    // One batch per tree level: the programs, then their parents not yet cached, and so on.
    for (std::size_t depth = 0; !want.empty() && depth < kMaxProgramDepth; ++depth) {
        {
            std::lock_guard lock(mutex_);
            std::erase_if(want, [&](std::int64_t id) {
                return id < 0 || nodes_.count(id) != 0 || absent_.count(id) != 0;
            });
        }
        std::sort(want.begin(), want.end());
        want.erase(std::unique(want.begin(), want.end()), want.end());
        if (want.empty())
            return;
        auto found = reader.programNodes(want);
        std::vector<std::int64_t> parents;
        std::lock_guard lock(mutex_);
        for (auto& node : found) {
            if (node.parentId >= 0)
                parents.push_back(node.parentId);
            nodes_.try_emplace(node.id, std::move(node));
        }
        for (std::int64_t id : want)
            if (!nodes_.count(id))
                absent_.insert(id);
        want = std::move(parents);
    }
}

report::ProgramPathEntry ProgramPathCache::entry(std::int64_t programId) const {
    std::lock_guard lock(mutex_);
    if (auto it = nodes_.find(programId); it != nodes_.end())
        return {it->second.id, it->second.kind, it->second.name};
    return {programId, {}, {}};
}

std::vector<report::RunLodProgram>
ProgramPathCache::lodPrograms(const report::ProfileReader& reader, const report::RunRecord& run,
                              std::int64_t level, std::int64_t firstBucket, std::int64_t lastBucket,
                              double bucketCycles) {
    const auto cyclesOf = [&](std::int64_t bucket) {
        return std::uint64_t(double(bucket) * bucketCycles);
    };
    const auto buckets = std::int64_t(std::ceil(double(run.totalCycles) / bucketCycles));
    firstBucket = std::max<std::int64_t>(firstBucket, 0);
    lastBucket = std::min(lastBucket, buckets - 1);
    if (lastBucket < firstBucket)
        return {};
    if (buckets > kMaxCachedBuckets)
        return reader.runLodPrograms(run, level, cyclesOf(firstBucket), cyclesOf(lastBucket));
    const auto key = std::make_pair(run.id, level);
    std::int64_t firstUnread = -1, lastUnread = -1;
    {
        std::lock_guard lock(mutex_);
        auto& table = lod_[key];
        if (table.empty())
            table.assign(std::size_t(buckets), report::RunLodProgram{0, 0, kUnread});
        for (std::int64_t b = firstBucket; b <= lastBucket; ++b)
            if (table[std::size_t(b)].programId == kUnread) {
                if (firstUnread < 0)
                    firstUnread = b;
                lastUnread = b;
            }
    }
    if (firstUnread >= 0) {
        // Read outside the lock (the caller holds the reader's); a bucket the query does not
        // return holds no step.
        const auto rows =
            reader.runLodPrograms(run, level, cyclesOf(firstUnread), cyclesOf(lastUnread));
        std::lock_guard lock(mutex_);
        auto& table = lod_[key];
        for (std::int64_t b = firstUnread; b <= lastUnread; ++b)
            table[std::size_t(b)] = {b, 0, -1};
        for (const auto& r : rows)
            if (r.bucket >= 0 && r.bucket < buckets)
                table[std::size_t(r.bucket)] = r;
    }
    std::vector<report::RunLodProgram> out;
    std::lock_guard lock(mutex_);
    const auto& table = lod_[key];
    for (std::int64_t b = firstBucket; b <= lastBucket; ++b)
        if (table[std::size_t(b)].steps > 0)
            out.push_back(table[std::size_t(b)]);
    return out;
}

FlameRows FlameRows::fetch(const report::ProfileReader& reader, const report::RunRecord& run,
                           std::uint64_t firstCycle, std::uint64_t endCycle, std::int64_t lodLevel,
                           std::int64_t stepLimit, ProgramPathCache& cache) {
    struct Unit {
        std::uint64_t begin, end;
        std::int64_t programId;
        double steps;
    };
    std::vector<Unit> units;
    if (lodLevel >= 0) {
        // The columns' level has one to four buckets per pixel; a flame needs at most one bar
        // per pixel, so it reads the next coarser level when stored: a quarter of the buckets,
        // each a random lookup of its first step's program, which is what a zoomed-out frame
        // waits for.
        const double base = double(reader.runLodBaseCycles());
        lodLevel = std::max(lodLevel, reader.runLodLevelFor(
                                          run, base * std::pow(4.0, double(lodLevel + 1)) * 1.001));
        const double width = base * std::pow(4.0, double(lodLevel));
        for (const auto& b :
             cache.lodPrograms(reader, run, lodLevel, std::int64_t(double(firstCycle) / width),
                               std::int64_t(double(endCycle - 1) / width), width)) {
            const auto begin = std::uint64_t(double(b.bucket) * width);
            const auto end = std::min(std::uint64_t(double(b.bucket + 1) * width), run.totalCycles);
            units.push_back({std::max(begin, firstCycle), std::min(end, endCycle), b.programId,
                             double(b.steps)});
        }
    } else {
        for (const auto& s : reader.runStepPrograms(run, firstCycle, endCycle, stepLimit))
            units.push_back({std::max(s.startCycle, firstCycle),
                             std::min(s.startCycle + s.cycles, endCycle), s.programId, 1.0});
    }
    FlameRows out;
    std::vector<std::size_t> lastUnit; // per row: index of the unit that last extended it
    std::unordered_map<std::int64_t, std::vector<std::int64_t>> paths; // this window's, by program
    for (std::size_t u = 0; u < units.size(); ++u) {
        const Unit& unit = units[u];
        if (unit.end <= unit.begin || unit.programId < 0)
            continue;
        auto known = paths.find(unit.programId);
        if (known == paths.end()) {
            std::vector<std::int64_t> p;
            if (!cache.pathIds(unit.programId, p))
                out.missing.push_back(unit.programId);
            known = paths.emplace(unit.programId, std::move(p)).first;
        }
        const auto& path = known->second;
        if (path.size() > out.rows.size()) {
            out.rows.resize(path.size());
            lastUnit.resize(path.size(), std::size_t(-1));
        }
        for (std::size_t d = 0; d < path.size(); ++d) {
            auto& row = out.rows[d];
            if (!row.empty() && row.back().programId == path[d] && lastUnit[d] + 1 == u) {
                row.back().endCycle = unit.end;
                row.back().steps += unit.steps;
            } else {
                row.push_back({unit.begin, unit.end, path[d], unit.steps});
            }
            lastUnit[d] = u;
        }
    }
    return out;
}

} // namespace tilescope::gui
