#pragma once

#include "tilescope/report/ProfileReader.hpp"

#include <QString>
#include <cstdint>
#include <vector>

namespace tilescope::gui {

/// Memory over program steps for groups of tiles (each IPU, or the selected tiles): per group,
/// always-live bytes (constant) and the not-always-live bytes of every step. Built once on a
/// worker from the variables' live ranges (each not-always-live variable's bytes summed per group,
/// added over its range with a difference array), then kept with a min/max pyramid (buckets of
/// 8, 64, 512... steps) so that a window of any width costs at most a few dozen bucket reads per
/// pixel column and group, never the raw steps.
class LivenessGroupSeries {
public:
    struct Column {
        std::int64_t firstStep = 0;
        std::int64_t lastStep = 0;
        std::vector<double> minNotAlwaysLive; // one per group
        std::vector<double> maxNotAlwaysLive;
    };

    LivenessGroupSeries() = default;
    /// `groupOfTile[t]` is the group of global tile t (negative: in none); `names` has one entry
    /// per group.
    static LivenessGroupSeries build(const report::ProfileReader& reader,
                                     const std::vector<int>& groupOfTile,
                                     std::vector<QString> names);

    int groups() const { return int(names_.size()); }
    const QString& name(int group) const { return names_[std::size_t(group)]; }
    double alwaysLive(int group) const { return alwaysLive_[std::size_t(group)]; }
    std::int64_t stepCount() const { return steps_; }
    /// Not-always-live bytes of a group at a step (exact).
    double notAlwaysLiveAt(int group, std::int64_t step) const;
    /// The highest always-live plus not-always-live of any group at any step.
    double peakTotal() const { return peakTotal_; }
    /// At most `widthPx` columns over steps [firstStep, endStep), each with every group's range.
    std::vector<Column> window(std::int64_t firstStep, std::int64_t endStep, int widthPx) const;

private:
    static constexpr std::int64_t kFanout = 8;

    std::vector<QString> names_;
    std::vector<double> alwaysLive_;
    std::int64_t steps_ = 0;
    double peakTotal_ = 0;
    std::vector<std::vector<std::uint64_t>> values_; // [group][step]
    // levels_[k][group]: (min, max) per bucket of kFanout^(k+1) steps.
    std::vector<std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>>> levels_;
};

} // namespace tilescope::gui
