#pragma once

#include "tilescope/report/ProfileReader.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::report {

/// The figures of PopVision's summary page, computed from a report with a fixed number of small
/// queries (tile_memory totals, counts, runs): no per-tile or per-step table is scanned, so the
/// cost does not depend on the report's size.
struct ProfileSummary {
    struct CategoryTotal {
        std::string name;
        std::string label;
        std::uint64_t bytes = 0;
        std::uint64_t maxTileBytes = 0;
    };
    struct RegionTotal {
        std::string name;
        std::uint64_t bytesExcludingGaps = 0;
        std::uint64_t bytesIncludingGaps = 0;
        std::uint64_t capacityBytes = 0; // region size x tiles
    };
    struct RunTotal {
        std::int64_t id = 0;
        std::int64_t programIndex = 0;
        std::uint64_t cycles = 0;
        std::uint64_t steps = 0;
        double hostMicroseconds = 0; // 0 while the run is still being written
        bool complete = true;
    };

    TargetInfo target;
    std::string toolVersion;
    std::string createdUtc;
    std::string engineName;
    bool complete = true;
    bool outOfMemory = false;
    ProfileCounts counts;

    std::uint64_t totalCapacityBytes = 0;
    std::uint64_t totalBytesExcludingGaps = 0;
    std::uint64_t totalBytesIncludingGaps = 0;
    std::uint64_t alwaysLiveBytes = 0;
    std::uint64_t peakNotAlwaysLiveBytes = 0; // summed per-tile peaks (the NAL category)
    std::uint64_t maxTileBytesIncludingGaps = 0;
    std::int64_t maxTile = -1;
    std::int64_t tilesOverCapacity = 0;
    std::vector<CategoryTotal> categories; // non-zero ones, largest first
    std::vector<RegionTotal> regions;
    std::vector<RunTotal> runs;
};

ProfileSummary summarize(const ProfileReader& reader);

} // namespace tilescope::report
