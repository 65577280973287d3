// pvti::Heatmap over HostTracer: the bucket of each value is found here, with the heatmap's own
// value type (exact for 64-bit integers), and the edges are stored as exact decimal text.

#include "pvti/Heatmap.hpp"
#include "pvti/pvti.hpp"
#include "tilescope/capture/HostTracer.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>
#include <type_traits>

namespace pvti {
namespace {

using tilescope::capture::HostTracer;

template <typename T> bool isNan(T value) {
    if constexpr (std::is_floating_point_v<T>)
        return std::isnan(value);
    else
        return false;
}

template <typename T> void checkEdges(const std::string& name, const std::vector<T>& edges) {
    if (edges.empty())
        throw std::invalid_argument(
            fmt::format("pvti::Heatmap '{}': needs at least one bucket edge", name));
    for (std::size_t i = 0; i < edges.size(); ++i) {
        if (isNan(edges[i]))
            throw std::invalid_argument(
                fmt::format("pvti::Heatmap '{}': bucket edge {} is NaN", name, i));
        if (i > 0 && !(edges[i - 1] < edges[i]))
            throw std::invalid_argument(
                fmt::format("pvti::Heatmap '{}': bucket edges must be strictly ascending "
                            "(edge {} is {}, edge {} is {})",
                            name, i - 1, edges[i - 1], i, edges[i]));
    }
}

template <typename T> std::vector<std::string> edgeTexts(const std::vector<T>& edges) {
    std::vector<std::string> out;
    out.reserve(edges.size());
    for (T e : edges)
        out.push_back(fmt::format("{}", e)); // shortest text that reads back to the same value
    return out;
}

} // namespace

template <typename T>
Heatmap<T>::Heatmap(const std::string& name, const std::vector<T>& edges, const std::string& unit,
                    TraceChannel* channel)
    : name_(name), edges_(edges), channel_(channel), id_(0) {
    static_assert(std::is_same_v<T, double> || std::is_same_v<T, std::uint64_t>,
                  "pvti::Heatmap exists for double and std::uint64_t");
    checkEdges(name_, edges_);
    id_ = HostTracer::instance().addHeatmap(name_, unit, std::is_integral_v<T>, edgeTexts(edges_));
}

template <typename T> std::size_t Heatmap<T>::bucketOf(T value) const {
    return static_cast<std::size_t>(std::upper_bound(edges_.begin(), edges_.end(), value) -
                                    edges_.begin());
}

template <typename T> void Heatmap<T>::add(T value) {
    if (isNan(value) || (channel_ && channel_->id() == detail::kDisabledChannel))
        return;
    const double v = static_cast<double>(value);
    const auto bucket = static_cast<std::int32_t>(bucketOf(value));
    HostTracer::instance().heatmapSamples(id_, &v, &bucket, 1);
}

template <typename T> void Heatmap<T>::add(const std::vector<T>& values) {
    if (channel_ && channel_->id() == detail::kDisabledChannel)
        return;
    std::vector<double> kept;
    std::vector<std::int32_t> buckets;
    kept.reserve(values.size());
    buckets.reserve(values.size());
    for (T value : values) {
        if (isNan(value))
            continue;
        kept.push_back(static_cast<double>(value));
        buckets.push_back(static_cast<std::int32_t>(bucketOf(value)));
    }
    HostTracer::instance().heatmapSamples(id_, kept.data(), buckets.data(), kept.size());
}

template class Heatmap<double>;
template class Heatmap<std::uint64_t>;

} // namespace pvti
