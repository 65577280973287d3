#include "TargetDescription.hpp"

#include "Units.hpp"

#include <fmt/format.h>

namespace tilescope::cli {

std::string describeTarget(const report::TargetInfo& t) {
    return fmt::format("{} {}, {} IPU{} x {} tiles ({} tiles), {} per tile, {}", t.type,
                       t.ipuVersion, t.numIpus, t.numIpus == 1 ? "" : "s",
                       groupDigits(t.tilesPerIpu), groupDigits(t.numTiles()),
                       formatBytesShort(t.bytesPerTile), formatClock(t.clockHz));
}

nlohmann::json targetJson(const report::TargetInfo& t) {
    nlohmann::json regions = nlohmann::json::array();
    for (const auto& r : t.regions)
        regions.push_back({{"name", r.name},
                           {"interleaved", r.interleaved},
                           {"start_offset", r.startOffset},
                           {"size_bytes", r.sizeBytes}});
    return {{"type", t.type},
            {"ipu_version", t.ipuVersion},
            {"num_ipus", t.numIpus},
            {"tiles_per_ipu", t.tilesPerIpu},
            {"num_tiles", t.numTiles()},
            {"bytes_per_tile", t.bytesPerTile},
            {"clock_hz", t.clockHz},
            {"replicas", t.replicas},
            {"worker_contexts", t.workerContexts},
            {"exchange_bytes_per_cycle", t.exchangeBytesPerCycle},
            {"memory_regions", std::move(regions)}};
}

std::string dumpJson(const nlohmann::json& value) {
    return value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace tilescope::cli
