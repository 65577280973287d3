#include "tilescope/report/ProfileSummary.hpp"

#include <algorithm>
#include <map>

namespace tilescope::report {

ProfileSummary summarize(const ProfileReader& reader) {
    ProfileSummary s;
    const ReportFile& file = reader.file();
    s.target = reader.target();
    s.toolVersion = file.metadataValue("tool_version");
    s.createdUtc = file.metadataValue("created_utc");
    s.engineName = file.metadataValue("engine_name");
    s.complete = file.complete();
    s.outOfMemory = reader.outOfMemory();
    s.counts = reader.counts();

    const auto tiles = s.target.numTiles();
    s.totalCapacityBytes = s.target.bytesPerTile * tiles;

    std::map<std::int64_t, const MemoryCategory*> categoryById;
    for (const auto& c : reader.memoryCategories())
        categoryById[c.id] = &c;
    std::map<std::int64_t, ProfileSummary::RegionTotal> regions;
    for (const auto& r : s.target.regions)
        regions[r.id] = {r.name, 0, 0, r.sizeBytes * tiles};
    std::map<std::int64_t, ProfileSummary::CategoryTotal> categories;

    for (const TileMemoryRow& row : reader.tileMemoryTotals()) {
        const auto cit = categoryById.find(row.categoryId);
        const bool isGap = cit != categoryById.end() && cit->second->group == "gap";
        auto& region = regions[row.regionId];
        region.bytesIncludingGaps += row.totalBytes;
        s.totalBytesIncludingGaps += row.totalBytes;
        if (!isGap) {
            region.bytesExcludingGaps += row.totalBytes;
            s.totalBytesExcludingGaps += row.totalBytes;
        }
        if (cit != categoryById.end()) {
            if (cit->second->liveness == "always")
                s.alwaysLiveBytes += row.totalBytes;
            else if (cit->second->liveness == "not_always")
                s.peakNotAlwaysLiveBytes += row.totalBytes;
        }
        auto& cat = categories[row.categoryId];
        if (cit != categoryById.end()) {
            cat.name = cit->second->name;
            cat.label = cit->second->label;
        } else {
            cat.name = cat.label = "category " + std::to_string(row.categoryId);
        }
        cat.bytes += row.totalBytes;
        cat.maxTileBytes = std::max(cat.maxTileBytes, row.maxTileBytes);
    }
    for (auto& [id, c] : categories)
        if (c.bytes > 0)
            s.categories.push_back(c);
    std::sort(s.categories.begin(), s.categories.end(),
              [](const auto& a, const auto& b) { return a.bytes > b.bytes; });
    for (auto& [id, r] : regions)
        s.regions.push_back(r);

    // One decode per tile_memory row (a few dozen blobs of one value per tile): the only per-tile
    // work, and bounded by the machine size, not by the program.
    const PerTile perTile = reader.tileMemoryTotal(true);
    for (std::size_t t = 0; t < perTile.size(); ++t) {
        if (perTile[t] > s.maxTileBytesIncludingGaps || s.maxTile < 0) {
            s.maxTileBytesIncludingGaps = perTile[t];
            s.maxTile = static_cast<std::int64_t>(t);
        }
        if (perTile[t] > s.target.bytesPerTile)
            ++s.tilesOverCapacity;
    }

    for (const RunRecord& r : reader.runs()) {
        ProfileSummary::RunTotal t;
        t.id = r.id;
        t.programIndex = r.programIndex;
        t.cycles = r.totalCycles;
        t.steps = r.numSteps;
        t.complete = r.hostEndNs.has_value();
        if (r.hostEndNs)
            t.hostMicroseconds = static_cast<double>(*r.hostEndNs - r.hostStartNs) / 1000.0;
        s.runs.push_back(t);
    }
    return s;
}

} // namespace tilescope::report
