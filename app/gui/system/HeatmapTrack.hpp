#pragma once
// A libpvti heatmap as a timeline row: the worker's binning (counts per time bin and bucket for
// the visible window) and what the canvas needs to draw it (colour ramp, legend, tooltip text).

#include "tilescope/report/HostTraceReader.hpp"

#include <QString>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace tilescope::gui {

/// The binned heatmap of one row for the visible window: `counts[bin * buckets + bucket]` for
/// equal time bins of `binNs` from `fromNs` (about kHeatmapBinPx pixels each), bucket 0 (values
/// below the first edge) at the bottom. Computed on the timeline's worker thread.
struct HeatmapCells {
    static constexpr int kHeatmapBinPx = 3;
    std::int64_t fromNs = 0;
    std::int64_t binNs = 1;
    std::size_t bins = 0;
    std::size_t buckets = 0;
    std::vector<std::uint64_t> counts;
    std::uint64_t maxCount = 0;
    std::uint64_t at(std::size_t bin, std::size_t bucket) const {
        return counts[bin * buckets + bucket];
    }
    /// The bin holding time `ns`, or -1 outside the window.
    long long binAt(std::int64_t ns) const;

    /// Bins the heatmap's values in [fromNs, toNs) for a plot `widthPx` wide. A window holding
    /// many values is summed from the heatmap's overview (its bins are then whole overview bins,
    /// the first one starting at or before fromNs); a window holding few is binned from the
    /// samples themselves. Call under the reader's lock (the overviews are not locked).
    static HeatmapCells fetch(const report::HostTraceReader& reader,
                              std::unordered_map<std::int64_t, HeatmapCells>& overviews,
                              std::int64_t heatmapId, std::int64_t fromNs, std::int64_t toNs,
                              int widthPx);
    /// Bins of the overview, built once per heatmap over its whole time span.
    /// 65,536 bins keep a window that the overview is too coarse for under about 1/400 of the
    /// samples (about 15 K of 1 M), so binning it directly stays within the frame budget.
    static constexpr std::size_t kOverviewBins = 65536;
    /// A window with at most this many values is binned from the samples.
    static constexpr std::uint64_t kDirectSamples = 20'000;
};

/// Whole-span overviews of a file's heatmaps, by heatmap id (HostTraceSession holds one).
using HeatmapOverviews = std::unordered_map<std::int64_t, HeatmapCells>;

/// "< 1", "[1, 10)", ">= 100": what each bucket of a heatmap holds, bucket 0 first.
std::vector<QString> heatmapBucketLabels(const report::HeatmapInfo& heatmap);

/// Colour of a cell as 0xAABBGGRR (ImGui's layout): transparent for 0, then from dark blue to
/// yellow on a square-root scale of count / maxCount, so sparse cells stay visible.
std::uint32_t heatmapColour(std::uint64_t count, std::uint64_t maxCount);

} // namespace tilescope::gui
