#pragma once
// libpvti heatmaps: a distribution of values over time, with bucket edges the program gives.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pvti {

class TraceChannel;

/// A heatmap counter, with the names and semantics of libpvti's: `pvti::HeatmapDouble
/// latency("Latency", {1.0, 10.0, 100.0}, "ms"); latency.add(12.5);`. Each added value is counted
/// in a bucket with its time; the system analyser draws a heatmap track (time on x, buckets on y,
/// colour = count). The edges, strictly ascending and at least one, define edges.size() + 1
/// buckets: bucket 0 holds values below the first edge, bucket i values in [edges[i-1],
/// edges[i]), and the last bucket values at or above the last edge, so values outside the edges
/// land in the outer buckets (a NaN is not counted). With a channel, values are recorded only
/// while that channel is traced; without one, whenever tracing is on. Bad edges throw
/// std::invalid_argument. Only HeatmapDouble and HeatmapUInt64 exist (T is double or uint64_t).
template <typename T> class Heatmap {
public:
    Heatmap(const std::string& name, const std::vector<T>& edges, const std::string& unit = "",
            TraceChannel* channel = nullptr);

    /// Counts one value, timestamped now.
    void add(T value);
    /// Counts several values, all timestamped now (one lock for the batch).
    void add(const std::vector<T>& values);

    const std::string& name() const { return name_; }
    const std::vector<T>& edges() const { return edges_; }
    /// The bucket a value falls in (0 .. edges().size()).
    std::size_t bucketOf(T value) const;

private:
    std::string name_;
    std::vector<T> edges_;
    TraceChannel* channel_;
    std::uint32_t id_;
};

typedef Heatmap<double> HeatmapDouble;
typedef Heatmap<std::uint64_t> HeatmapUInt64;

extern template class Heatmap<double>;
extern template class Heatmap<std::uint64_t>;

} // namespace pvti
