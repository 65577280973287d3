#include "LivenessGroupSeries.hpp"

#include <algorithm>

namespace tilescope::gui {

LivenessGroupSeries LivenessGroupSeries::build(const report::ProfileReader& reader,
                                               const std::vector<int>& groupOfTile,
                                               std::vector<QString> names) {
    const int groups = int(names.size());
    const std::int64_t steps = reader.counts().steps;
    std::vector<double> alwaysLive(std::size_t(groups), 0);
    const report::PerTile always = reader.alwaysLiveBytesPerTile();
    for (std::size_t t = 0; t < std::min(always.size(), groupOfTile.size()); ++t)
        if (groupOfTile[t] >= 0 && groupOfTile[t] < groups)
            alwaysLive[std::size_t(groupOfTile[t])] += double(always[t]);

    // Difference arrays: + bytes at the first live step, - after the last; prefix sums give the
    // bytes live at every step.
    const auto n = std::size_t(std::max<std::int64_t>(0, steps));
    std::vector<std::vector<std::int64_t>> diff(std::size_t(groups),
                                                std::vector<std::int64_t>(n + 1, 0));
    for (const auto& r : reader.notAlwaysLiveRangesByGroup(groupOfTile, groups)) {
        const auto first = std::size_t(std::clamp<std::int64_t>(r.firstStep, 0, steps));
        const auto end = std::size_t(std::clamp<std::int64_t>(r.lastStep + 1, 0, steps));
        if (end <= first)
            continue;
        for (int g = 0; g < groups; ++g) {
            diff[std::size_t(g)][first] += std::int64_t(r.bytesPerGroup[std::size_t(g)]);
            diff[std::size_t(g)][end] -= std::int64_t(r.bytesPerGroup[std::size_t(g)]);
        }
    }
    std::vector<std::vector<std::uint64_t>> values(static_cast<std::size_t>(groups));
    for (int g = 0; g < groups; ++g) {
        auto& v = values[std::size_t(g)];
        v.resize(n);
        std::int64_t acc = 0;
        for (std::size_t i = 0; i < n; ++i) {
            acc += diff[std::size_t(g)][i];
            v[i] = std::uint64_t(std::max<std::int64_t>(0, acc));
        }
        diff[std::size_t(g)] = {};
    }
    return fromSteps(std::move(names), std::move(alwaysLive), std::move(values));
}

LivenessGroupSeries
LivenessGroupSeries::fromSteps(std::vector<QString> names, std::vector<double> alwaysLive,
                               std::vector<std::vector<std::uint64_t>> notAlwaysLive) {
    LivenessGroupSeries s;
    const std::size_t groups = names.size();
    s.names_ = std::move(names);
    s.alwaysLive_ = std::move(alwaysLive);
    s.alwaysLive_.resize(groups, 0);
    s.values_ = std::move(notAlwaysLive);
    s.values_.resize(groups);
    const std::size_t n = groups ? s.values_.front().size() : 0;
    for (auto& v : s.values_)
        v.resize(n, 0);
    s.steps_ = std::int64_t(n);
    for (std::size_t g = 0; g < groups; ++g)
        for (std::uint64_t v : s.values_[g])
            s.peakTotal_ = std::max(s.peakTotal_, s.alwaysLive_[g] + double(v));
    // The pyramid: level 0 covers kFanout steps per bucket, each level above kFanout buckets of
    // the one below, up to a level of one bucket.
    for (std::size_t below = n; below > 1;) {
        const std::size_t buckets = (below + kFanout - 1) / kFanout;
        std::vector<std::vector<Bucket>> level(groups);
        for (std::size_t g = 0; g < groups; ++g) {
            auto& out = level[g];
            out.resize(buckets);
            for (std::size_t b = 0; b < buckets; ++b) {
                Bucket r{~std::uint64_t(0), 0};
                for (std::size_t i = b * kFanout; i < std::min(below, (b + 1) * kFanout); ++i) {
                    const Bucket in = s.levels_.empty() ? Bucket{s.values_[g][i], s.values_[g][i]}
                                                        : s.levels_.back()[g][i];
                    r.first = std::min(r.first, in.first);
                    r.second = std::max(r.second, in.second);
                }
                out[b] = r;
            }
        }
        s.levels_.push_back(std::move(level));
        below = buckets;
    }
    return s;
}

std::int64_t LivenessGroupSeries::bucketSteps(int level) {
    std::int64_t width = kFanout;
    for (int k = 0; k < level; ++k)
        width *= kFanout;
    return width;
}

int LivenessGroupSeries::levelForColumn(double stepsPerColumn) const {
    int level = -1;
    while (level + 1 < levels() && double(bucketSteps(level + 1)) <= 2 * stepsPerColumn)
        ++level;
    return level;
}

double LivenessGroupSeries::notAlwaysLiveAt(int group, std::int64_t step) const {
    if (group < 0 || group >= groups() || step < 0 || step >= steps_)
        return 0;
    return double(values_[std::size_t(group)][std::size_t(step)]);
}

LivenessGroupSeries::Range LivenessGroupSeries::range(int group, std::int64_t firstStep,
                                                      std::int64_t lastStep) const {
    firstStep = std::max<std::int64_t>(firstStep, 0);
    lastStep = std::min(lastStep, steps_ - 1);
    if (group < 0 || group >= groups() || lastStep < firstStep)
        return {};
    // Whole buckets where they fit, single steps at the ragged ends: a few dozen reads at most.
    Bucket r{~std::uint64_t(0), 0};
    const auto& v = values_[std::size_t(group)];
    for (std::int64_t at = firstStep; at <= lastStep;) {
        int level = -1;
        while (level + 1 < levels() && at % bucketSteps(level + 1) == 0 &&
               at + bucketSteps(level + 1) - 1 <= lastStep)
            ++level;
        const Bucket b = level < 0 ? Bucket{v[std::size_t(at)], v[std::size_t(at)]}
                                   : bucket(level, group, at / bucketSteps(level));
        r.first = std::min(r.first, b.first);
        r.second = std::max(r.second, b.second);
        at += level < 0 ? 1 : bucketSteps(level);
    }
    return {double(r.first), double(r.second)};
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
    // One level for the whole window, from the mean column width.
    const int level = levelForColumn(double(span) / double(columns));
    const std::int64_t width = level < 0 ? 1 : bucketSteps(level);
    out.reserve(std::size_t(columns));
    for (std::int64_t c = 0; c < columns; ++c) {
        Column col;
        col.firstStep = firstStep + c * span / columns;
        col.lastStep = firstStep + (c + 1) * span / columns - 1;
        col.minNotAlwaysLive.resize(std::size_t(groups()));
        col.maxNotAlwaysLive.resize(std::size_t(groups()));
        for (int g = 0; g < groups(); ++g) {
            Bucket r{~std::uint64_t(0), 0};
            for (std::int64_t i = col.firstStep / width; i <= col.lastStep / width; ++i) {
                const Bucket b = level < 0 ? Bucket{values_[std::size_t(g)][std::size_t(i)],
                                                    values_[std::size_t(g)][std::size_t(i)]}
                                           : bucket(level, g, i);
                r.first = std::min(r.first, b.first);
                r.second = std::max(r.second, b.second);
            }
            col.minNotAlwaysLive[std::size_t(g)] = double(r.first);
            col.maxNotAlwaysLive[std::size_t(g)] = double(r.second);
        }
        out.push_back(std::move(col));
    }
    return out;
}

} // namespace tilescope::gui
