#include "HeatmapTrack.hpp"

#include <algorithm>
#include <cmath>

namespace tilescope::gui {

long long HeatmapCells::binAt(std::int64_t ns) const {
    if (bins == 0 || ns < fromNs)
        return -1;
    const long long bin = (ns - fromNs) / binNs;
    return bin < static_cast<long long>(bins) ? bin : -1;
}

namespace {

HeatmapCells fromBins(const report::HeatmapBins& b) {
    HeatmapCells c;
    c.fromNs = b.fromNs;
    c.binNs = b.binNs;
    c.bins = b.bins;
    c.buckets = b.buckets;
    c.counts = b.counts;
    for (const std::uint64_t n : c.counts)
        c.maxCount = std::max(c.maxCount, n);
    return c;
}

const HeatmapCells& overviewOf(const report::HostTraceReader& reader, HeatmapOverviews& overviews,
                               std::int64_t heatmapId) {
    auto it = overviews.find(heatmapId);
    if (it != overviews.end())
        return it->second;
    HeatmapCells overview;
    if (const auto span = reader.heatmapTimeSpan(heatmapId))
        overview = fromBins(reader.heatmapBins(heatmapId, span->first, span->second + 1,
                                               HeatmapCells::kOverviewBins));
    return overviews.emplace(heatmapId, std::move(overview)).first->second;
}

} // namespace

HeatmapCells HeatmapCells::fetch(const report::HostTraceReader& reader, HeatmapOverviews& overviews,
                                 std::int64_t heatmapId, std::int64_t fromNs, std::int64_t toNs,
                                 int widthPx) {
    const std::size_t bins = static_cast<std::size_t>(std::max(1, widthPx / kHeatmapBinPx));
    const HeatmapCells& ov = overviewOf(reader, overviews, heatmapId);
    if (ov.bins > 0 && toNs > fromNs) {
        auto binOf = [&](std::int64_t ns) {
            const std::int64_t b = ns <= ov.fromNs ? 0 : (ns - ov.fromNs + ov.binNs - 1) / ov.binNs;
            return static_cast<std::size_t>(std::min<std::int64_t>(b, std::int64_t(ov.bins)));
        };
        const std::size_t first =
            fromNs <= ov.fromNs ? 0
                                : std::min(ov.bins, std::size_t((fromNs - ov.fromNs) / ov.binNs));
        const std::size_t last = binOf(toNs);
        std::uint64_t samples = 0;
        for (std::size_t i = first * ov.buckets; i < last * ov.buckets; ++i)
            samples += ov.counts[i];
        const std::size_t covered = last > first ? last - first : 0;
        if (covered >= 2 * bins && samples > kDirectSamples) {
            const std::size_t per = (covered + bins - 1) / bins; // overview bins per cell
            HeatmapCells c;
            c.fromNs = ov.fromNs + std::int64_t(first) * ov.binNs;
            c.binNs = std::int64_t(per) * ov.binNs;
            c.bins = (covered + per - 1) / per;
            c.buckets = ov.buckets;
            c.counts.assign(c.bins * c.buckets, 0);
            for (std::size_t b = first; b < last; ++b)
                for (std::size_t k = 0; k < ov.buckets; ++k)
                    c.counts[(b - first) / per * c.buckets + k] += ov.at(b, k);
            for (const std::uint64_t n : c.counts)
                c.maxCount = std::max(c.maxCount, n);
            return c;
        }
    }
    return fromBins(reader.heatmapBins(heatmapId, fromNs, toNs, bins));
}

std::vector<QString> heatmapBucketLabels(const report::HeatmapInfo& heatmap) {
    auto edge = [&](double e) {
        return heatmap.integerValues ? QString::number(static_cast<qulonglong>(e))
                                     : QString::number(e, 'g', 6);
    };
    std::vector<QString> out;
    if (heatmap.edges.empty())
        return out;
    out.push_back(QStringLiteral("< %1").arg(edge(heatmap.edges.front())));
    for (std::size_t i = 1; i < heatmap.edges.size(); ++i)
        out.push_back(
            QStringLiteral("[%1, %2)").arg(edge(heatmap.edges[i - 1]), edge(heatmap.edges[i])));
    out.push_back(QStringLiteral(">= %1").arg(edge(heatmap.edges.back())));
    return out;
}

std::uint32_t heatmapColour(std::uint64_t count, std::uint64_t maxCount) {
    if (count == 0 || maxCount == 0)
        return 0;
    const double t = std::sqrt(double(count) / double(maxCount));
    // Dark blue (30, 40, 120) to teal to yellow (250, 230, 60).
    auto mix = [&](double a, double b) { return std::uint32_t(std::lround(a + (b - a) * t)); };
    const std::uint32_t r = mix(30, 250), g = mix(40, 230), bl = mix(120, 60);
    return 0xff000000u | (bl << 16) | (g << 8) | r;
}

} // namespace tilescope::gui
