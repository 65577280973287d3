#pragma once

#include "tilescope/report/ProfileReader.hpp"

#include <QString>
#include <cstdint>
#include <utility>
#include <vector>

namespace tilescope::gui {

/// Memory over program steps for groups of tiles (each IPU, or the selected tiles): per group,
/// always-live bytes (constant) and the not-always-live bytes of every step. Built once on a
/// worker from the variables' live ranges (each not-always-live variable's bytes summed per group,
/// added over its range with a difference array), then kept with a min/max pyramid (buckets of
/// 4, 16, 64... steps). A window draws each pixel column from the level whose buckets are about a
/// column wide (at most two columns), so it reads at most three buckets per column and group
/// whatever the zoom; range() gives the exact figures of any step range for tooltips.
class LivenessGroupSeries {
public:
    struct Column {
        std::int64_t firstStep = 0;
        std::int64_t lastStep = 0;
        std::vector<double> minNotAlwaysLive; // one per group
        std::vector<double> maxNotAlwaysLive;
    };
    struct Range {
        double minNotAlwaysLive = 0;
        double maxNotAlwaysLive = 0;
    };
    using Bucket = std::pair<std::uint64_t, std::uint64_t>; // lowest, highest

    /// Steps per bucket of the lowest pyramid level, and the factor between levels.
    static constexpr std::int64_t kFanout = 4;

    LivenessGroupSeries() = default;
    /// `groupOfTile[t]` is the group of global tile t (negative: in none); `names` has one entry
    /// per group.
    static LivenessGroupSeries build(const report::ProfileReader& reader,
                                     const std::vector<int>& groupOfTile,
                                     std::vector<QString> names);
    /// From each group's always-live bytes and not-always-live bytes per step (all groups the
    /// same number of steps); build() ends here, tests start here.
    static LivenessGroupSeries fromSteps(std::vector<QString> names, std::vector<double> alwaysLive,
                                         std::vector<std::vector<std::uint64_t>> notAlwaysLive);

    int groups() const { return int(names_.size()); }
    const QString& name(int group) const { return names_[std::size_t(group)]; }
    double alwaysLive(int group) const { return alwaysLive_[std::size_t(group)]; }
    std::int64_t stepCount() const { return steps_; }
    /// Not-always-live bytes of a group at a step (exact).
    double notAlwaysLiveAt(int group, std::int64_t step) const;
    /// Exact lowest and highest not-always-live bytes of a group over [firstStep, lastStep].
    Range range(int group, std::int64_t firstStep, std::int64_t lastStep) const;
    /// The highest always-live plus not-always-live of any group at any step.
    double peakTotal() const { return peakTotal_; }

    /// Pyramid levels stored; level k has buckets of bucketSteps(k) steps.
    int levels() const { return int(levels_.size()); }
    static std::int64_t bucketSteps(int level);
    /// Bucket `index` of `level` for `group`.
    const Bucket& bucket(int level, int group, std::int64_t index) const {
        return levels_[std::size_t(level)][std::size_t(group)][std::size_t(index)];
    }
    /// The level a column of `stepsPerColumn` steps is drawn from: the coarsest whose buckets
    /// are at most two columns wide, so a column reads at most three of them (-1: the steps).
    int levelForColumn(double stepsPerColumn) const;

    /// At most `widthPx` columns over steps [firstStep, endStep), each with every group's range
    /// from levelForColumn(): an envelope that may reach into the neighbouring columns (never
    /// hides a peak), not the exact range.
    std::vector<Column> window(std::int64_t firstStep, std::int64_t endStep, int widthPx) const;

private:
    std::vector<QString> names_;
    std::vector<double> alwaysLive_;
    std::int64_t steps_ = 0;
    double peakTotal_ = 0;
    std::vector<std::vector<std::uint64_t>> values_;       // [group][step]
    std::vector<std::vector<std::vector<Bucket>>> levels_; // [level][group][bucket]
};

} // namespace tilescope::gui
