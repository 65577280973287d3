// Heatmaps (host-trace format v3) in a Chrome trace export: each heatmap becomes a counter with one
// series per bucket. A "C" event at the start of a time bin gives the number of values that fell
// in each bucket during that bin; a bin followed by an empty one is closed by an all-zero event, so
// the counter reads 0 where nothing was added. Bins are equal, at most kMaxBins per heatmap.

#include "ChromeTraceJsonOut.hpp"
#include "sqlite/Sqlite.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

namespace tilescope::report::detail {
namespace {

constexpr std::int64_t kMaxBins = 1000;

// "< e0", "[e0, e1)", ..., ">= eN": the bucket a series stands for.
std::vector<std::string> bucketLabels(const std::string& edgeText) {
    std::vector<std::string> edges;
    std::istringstream in(edgeText);
    for (std::string e; in >> e;)
        edges.push_back(e);
    std::vector<std::string> labels;
    if (edges.empty())
        return labels;
    labels.push_back("< " + edges.front());
    for (std::size_t i = 1; i < edges.size(); ++i)
        labels.push_back(fmt::format("[{}, {})", edges[i - 1], edges[i]));
    labels.push_back(">= " + edges.back());
    return labels;
}

std::string countsArgs(const std::vector<std::string>& labels,
                       const std::vector<std::uint64_t>& counts) {
    std::string args;
    for (std::size_t i = 0; i < labels.size(); ++i)
        args += fmt::format("{}{}:{}", i ? "," : "", quoted(labels[i]), counts[i]);
    return args;
}

} // namespace

std::uint64_t exportHeatmapCounters(const sql::Database& db, JsonOut& out) {
    std::uint64_t written = 0;
    auto heatmaps = db.prepare(
        "SELECT h.id, p.pid, n.text, h.unit, h.edges, min(s.t_ns), max(s.t_ns), count(s.id) "
        "FROM heatmap h JOIN process p ON p.id = h.process_id JOIN name n ON n.id = h.name_id "
        "JOIN heatmap_sample s ON s.heatmap_id = h.id GROUP BY h.id ORDER BY h.id");
    auto bins = db.prepare("SELECT (t_ns - ?1) / ?2 AS bin, bucket, count(*) FROM heatmap_sample "
                           "WHERE heatmap_id = ?3 GROUP BY bin, bucket ORDER BY bin, bucket");
    while (heatmaps.step()) {
        const std::int64_t pid = heatmaps.int64(1);
        const std::string name = quoted(heatmaps.text(2));
        const auto labels = bucketLabels(heatmaps.text(4));
        const std::int64_t from = heatmaps.int64(5), span = heatmaps.int64(6) - from + 1;
        const std::int64_t binCount = std::min(kMaxBins, heatmaps.int64(7));
        const std::int64_t binNs = std::max<std::int64_t>(1, (span + binCount - 1) / binCount);
        out.event(fmt::format(
            R"({{"ph":"M","name":"tilescope_counter_unit","pid":{},"args":{{"name":{},"unit":{}}}}})",
            pid, name, quoted(heatmaps.text(3))));
        std::vector<std::uint64_t> counts(labels.size(), 0);
        const std::vector<std::uint64_t> zeros(labels.size(), 0);
        auto emit = [&](std::int64_t bin, const std::vector<std::uint64_t>& c) {
            out.event(fmt::format(R"({{"ph":"C","name":{},"pid":{},"ts":{},"args":{{{}}}}})", name,
                                  pid, micros(from + bin * binNs), countsArgs(labels, c)));
            ++written;
        };
        std::int64_t current = -1;
        bins.reset();
        bins.bind(1, from).bind(2, binNs).bind(3, heatmaps.int64(0));
        while (bins.step()) {
            const std::int64_t bin = bins.int64(0), bucket = bins.int64(1);
            if (bin != current) {
                if (current >= 0) {
                    emit(current, counts);
                    if (bin > current + 1)
                        emit(current + 1, zeros);
                }
                std::fill(counts.begin(), counts.end(), 0);
                current = bin;
            }
            if (bucket >= 0 && bucket < static_cast<std::int64_t>(counts.size()))
                counts[static_cast<std::size_t>(bucket)] +=
                    static_cast<std::uint64_t>(bins.int64(2));
        }
        if (current >= 0) {
            emit(current, counts);
            emit(current + 1, zeros);
        }
    }
    return written;
}

} // namespace tilescope::report::detail
