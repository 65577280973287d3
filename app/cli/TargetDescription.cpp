#include "TargetDescription.hpp"

#include "Units.hpp"

#include <fmt/format.h>

namespace tilescope::cli {

std::string describeTarget(const report::TargetInfo& t) {
    std::string text = fmt::format("{} {}, {} IPU{} x {} tiles ({} tiles), {} per tile, {}", t.type,
                                   t.ipuVersion, t.numIpus, t.numIpus == 1 ? "" : "s",
                                   groupDigits(t.tilesPerIpu), groupDigits(t.numTiles()),
                                   formatBytesShort(t.bytesPerTile), formatClock(t.clockHz));
    if (t.replicas > 1) // the figures above are one replica's, the one the report profiles
        text += fmt::format(" per replica; {} replicas, {} IPUs in all (replica profiled)",
                            t.replicas, t.totalIpus());
    return text;
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
            {"num_ipus", t.totalIpus()},
            {"ipus_per_replica", t.numIpus},
            {"tiles_per_ipu", t.tilesPerIpu},
            {"num_tiles", std::uint64_t{t.totalIpus()} * t.tilesPerIpu},
            {"tiles_per_replica", t.numTiles()},
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
