#include "LivenessGroupSeries.hpp"

#include <algorithm>

namespace tilescope::gui {

LivenessGroupSeries LivenessGroupSeries::build(const report::ProfileReader& reader,
                                               const std::vector<int>& groupOfTile,
                                               std::vector<QString> names) {
    LivenessGroupSeries s;
    const int groups = int(names.size());
    s.names_ = std::move(names);
    s.steps_ = reader.counts().steps;
    s.alwaysLive_.assign(std::size_t(groups), 0);
    const report::PerTile always = reader.alwaysLiveBytesPerTile();
    for (std::size_t t = 0; t < std::min(always.size(), groupOfTile.size()); ++t)
        if (groupOfTile[t] >= 0 && groupOfTile[t] < groups)
            s.alwaysLive_[std::size_t(groupOfTile[t])] += double(always[t]);

    // Difference arrays: + bytes at the first live step, - after the last; prefix sums give the
    // bytes live at every step.
    const auto n = std::size_t(std::max<std::int64_t>(0, s.steps_));
    std::vector<std::vector<std::int64_t>> diff(std::size_t(groups),
                                                std::vector<std::int64_t>(n + 1, 0));
    for (const auto& r : reader.notAlwaysLiveRangesByGroup(groupOfTile, groups)) {
        const auto first = std::size_t(std::clamp<std::int64_t>(r.firstStep, 0, s.steps_));
        const auto end = std::size_t(std::clamp<std::int64_t>(r.lastStep + 1, 0, s.steps_));
        if (end <= first)
            continue;
        for (int g = 0; g < groups; ++g) {
            diff[std::size_t(g)][first] += std::int64_t(r.bytesPerGroup[std::size_t(g)]);
            diff[std::size_t(g)][end] -= std::int64_t(r.bytesPerGroup[std::size_t(g)]);
        }
    }
    s.values_.resize(std::size_t(groups));
    for (int g = 0; g < groups; ++g) {
        auto& v = s.values_[std::size_t(g)];
        v.resize(n);
        std::int64_t acc = 0;
        for (std::size_t i = 0; i < n; ++i) {
            acc += diff[std::size_t(g)][i];
            v[i] = std::uint64_t(std::max<std::int64_t>(0, acc));
            s.peakTotal_ = std::max(s.peakTotal_, s.alwaysLive_[std::size_t(g)] + double(v[i]));
        }
        diff[std::size_t(g)] = {};
    }
    // The pyramid: each level's buckets cover kFanout buckets of the level below.
    for (std::int64_t width = kFanout; width < s.steps_ * kFanout && width > 0; width *= kFanout) {
        std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>> level(
            static_cast<std::size_t>(groups));
        const std::size_t buckets = (n + std::size_t(width) - 1) / std::size_t(width);
        for (int g = 0; g < groups; ++g) {
            auto& out = level[std::size_t(g)];
            out.resize(buckets);
            for (std::size_t b = 0; b < buckets; ++b) {
                std::uint64_t lo = ~std::uint64_t(0), hi = 0;
                if (s.levels_.empty()) {
                    const auto& v = s.values_[std::size_t(g)];
                    for (std::size_t i = b * std::size_t(width);
                         i < std::min(n, (b + 1) * std::size_t(width)); ++i)
                        lo = std::min(lo, v[i]), hi = std::max(hi, v[i]);
                } else {
                    const auto& below = s.levels_.back()[std::size_t(g)];
                    for (std::size_t i = b * kFanout; i < std::min(below.size(), (b + 1) * kFanout);
                         ++i)
                        lo = std::min(lo, below[i].first), hi = std::max(hi, below[i].second);
                }
                out[b] = {lo, hi};
            }
        }
        s.levels_.push_back(std::move(level));
        if (buckets <= 1)
            break;
    }
    return s;
}

double LivenessGroupSeries::notAlwaysLiveAt(int group, std::int64_t step) const {
    if (group < 0 || group >= groups() || step < 0 || step >= steps_)
        return 0;
    return double(values_[std::size_t(group)][std::size_t(step)]);
}

std::vector<LivenessGroupSeries::Column>
LivenessGroupSeries::window(std::int64_t firstStep, std::int64_t endStep, int widthPx) const {
    std::vector<Column> out;
    firstStep = std::clamp<std::int64_t>(firstStep, 0, steps_);
    endStep = std::clamp<std::int64_t>(endStep, firstStep, steps_);
    const std::int64_t span = endStep - firstStep;
    if (span <= 0 || widthPx <= 0 || groups() == 0)
        return out;
    const std::int64_t columns = std::min<std::int64_t>(span, widthPx);
    out.reserve(std::size_t(columns));
    for (std::int64_t c = 0; c < columns; ++c) {
        Column col;
        col.firstStep = firstStep + c * span / columns;
        col.lastStep = firstStep + (c + 1) * span / columns - 1;
        const std::int64_t count = col.lastStep - col.firstStep + 1;
        // The coarsest level whose buckets fit in the column; the buckets at its edges may reach
        // past it (an envelope that never hides a peak).
        int level = -1;
        for (std::int64_t w = kFanout; level + 1 < int(levels_.size()) && w <= count; w *= kFanout)
            ++level;
        col.minNotAlwaysLive.resize(std::size_t(groups()));
        col.maxNotAlwaysLive.resize(std::size_t(groups()));
        for (int g = 0; g < groups(); ++g) {
            std::uint64_t lo = ~std::uint64_t(0), hi = 0;
            if (level < 0) {
                const auto& v = values_[std::size_t(g)];
                for (std::int64_t i = col.firstStep; i <= col.lastStep; ++i)
                    lo = std::min(lo, v[std::size_t(i)]), hi = std::max(hi, v[std::size_t(i)]);
            } else {
                std::int64_t width = kFanout;
                for (int k = 0; k < level; ++k)
                    width *= kFanout;
                const auto& b = levels_[std::size_t(level)][std::size_t(g)];
                for (std::int64_t i = col.firstStep / width; i <= col.lastStep / width; ++i)
                    lo = std::min(lo, b[std::size_t(i)].first),
                    hi = std::max(hi, b[std::size_t(i)].second);
            }
            col.minNotAlwaysLive[std::size_t(g)] = double(lo);
            col.maxNotAlwaysLive[std::size_t(g)] = double(hi);
        }
        out.push_back(std::move(col));
    }
    return out;
}

} // namespace tilescope::gui
