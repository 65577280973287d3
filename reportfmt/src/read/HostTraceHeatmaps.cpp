// HostTraceReader's libpvti heatmaps (format v3). Older files have the tables empty in the temp
// schema (SchemaMigration), so these queries need no version check. Binning is one grouped query
// over the (heatmap_id, t_ns) index: the viewer gets counts, never the samples themselves.

#include "sqlite/Sqlite.hpp"
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/ReportError.hpp"

#include <charconv>
#include <fmt/format.h>

namespace tilescope::report {
namespace {

// Edges are decimal numbers separated by single spaces (HostTraceWriter::addHeatmap).
std::vector<double> parseEdges(const std::string& text, const std::string& path) {
    std::vector<double> edges;
    const char* p = text.data();
    const char* end = p + text.size();
    while (p < end) {
        double v = 0;
        const auto [next, ec] = std::from_chars(p, end, v);
        if (ec != std::errc())
            throw ReportError(path, fmt::format("heatmap edges are not numbers: '{}'", text));
        edges.push_back(v);
        p = next;
        while (p < end && *p == ' ')
            ++p;
    }
    return edges;
}

} // namespace

std::vector<HeatmapInfo> HostTraceReader::heatmaps() const {
    std::vector<HeatmapInfo> out;
    auto st = file_.database().prepare(
        "SELECT h.id, h.process_id, n.text, h.unit, h.integer_values, h.edges FROM heatmap h "
        "LEFT JOIN name n ON n.id = h.name_id ORDER BY h.id");
    while (st.step())
        out.push_back({st.int64(0), st.int64(1), st.text(2), st.text(3), st.int64(4) != 0,
                       parseEdges(st.text(5), path())});
    return out;
}

std::vector<HeatmapSample> HostTraceReader::heatmapSamples(std::int64_t heatmapId,
                                                           std::int64_t fromNs, std::int64_t toNs,
                                                           std::int64_t limit) const {
    std::vector<HeatmapSample> out;
    if (limit <= 0 || toNs < fromNs)
        return out;
    auto st = file_.database().prepare(
        "SELECT t_ns, value, bucket FROM heatmap_sample WHERE heatmap_id = ? AND "
        "t_ns BETWEEN ? AND ? ORDER BY t_ns, id LIMIT ?");
    st.bind(1, heatmapId).bind(2, fromNs).bind(3, toNs).bind(4, limit);
    while (st.step())
        out.push_back({st.int64(0), st.real(1), static_cast<std::int32_t>(st.int64(2))});
    return out;
}

std::optional<std::pair<std::int64_t, std::int64_t>>
HostTraceReader::heatmapTimeSpan(std::int64_t heatmapId) const {
    auto st = file_.database().prepare(
        "SELECT (SELECT t_ns FROM heatmap_sample WHERE heatmap_id = ?1 ORDER BY t_ns LIMIT 1), "
        "(SELECT t_ns FROM heatmap_sample WHERE heatmap_id = ?1 ORDER BY t_ns DESC LIMIT 1)");
    st.bind(1, heatmapId);
    if (!st.step() || st.isNull(0))
        return std::nullopt;
    return std::make_pair(st.int64(0), st.int64(1));
}

HeatmapBins HostTraceReader::heatmapBins(std::int64_t heatmapId, std::int64_t fromNs,
                                         std::int64_t toNs, std::size_t bins) const {
    HeatmapBins out;
    std::size_t buckets = 0;
    {
        auto st = file_.database().prepare("SELECT edges FROM heatmap WHERE id = ?");
        st.bind(1, heatmapId);
        if (!st.step())
            throw ReportError(path(), fmt::format("no heatmap with id {}", heatmapId));
        buckets = parseEdges(st.text(0), path()).size() + 1;
    }
    out.fromNs = fromNs;
    out.buckets = buckets;
    if (bins == 0 || toNs <= fromNs)
        return out;
    const std::int64_t span = toNs - fromNs;
    out.binNs = std::max<std::int64_t>(1, (span + static_cast<std::int64_t>(bins) - 1) /
                                              static_cast<std::int64_t>(bins));
    out.bins = static_cast<std::size_t>((span + out.binNs - 1) / out.binNs);
    out.counts.assign(out.bins * buckets, 0);
    // Rows come in index order from the covering index; binning here rather than with GROUP BY
    // spares SQLite a temporary b-tree per window.
    auto st = file_.database().prepare(
        "SELECT t_ns, bucket FROM heatmap_sample "
        "WHERE heatmap_id = ?1 AND t_ns >= ?2 AND t_ns < ?3");
    st.bind(1, heatmapId).bind(2, fromNs).bind(3, toNs);
    const auto numBuckets = static_cast<std::int64_t>(buckets);
    while (st.step()) {
        const std::int64_t bin = (st.int64(0) - fromNs) / out.binNs, bucket = st.int64(1);
        if (bin < 0 || bin >= static_cast<std::int64_t>(out.bins) || bucket < 0 ||
            bucket >= numBuckets)
            throw ReportError(path(), fmt::format("heatmap {} has a sample in bucket {} of {}",
                                                  heatmapId, bucket, buckets));
        ++out.counts[static_cast<std::size_t>(bin) * buckets + static_cast<std::size_t>(bucket)];
    }
    return out;
}

} // namespace tilescope::report
