#pragma once

#include <cstdint>
#include <vector>

namespace tilescope::gui {

/// Two series over one x domain (tiles, or aligned steps) and their difference, for the compare
/// canvases. A point may be missing on one side (a step only one run has); a missing point adds
/// nothing to that side's envelope but counts as 0 in the difference, as in StepAlignment.
struct CompareSeries {
    std::vector<double> source;
    std::vector<double> target;
    std::vector<std::uint8_t>
        presence; // bit 0: in source, bit 1: in target; empty: both everywhere

    std::size_t size() const { return source.size(); }
    bool inSource(std::size_t i) const { return presence.empty() || (presence[i] & 1); }
    bool inTarget(std::size_t i) const { return presence.empty() || (presence[i] & 2); }
    double difference(std::size_t i) const { return target[i] - source[i]; }

    /// One pixel column of [first, end): the points it covers and the min/max of each side and
    /// of the difference, so a frame draws at most one envelope per column whatever the number of
    /// points (23,552 tiles or 200,000 steps).
    struct Column {
        std::uint32_t first = 0, end = 0;
        bool hasSource = false, hasTarget = false;
        double sourceMin = 0, sourceMax = 0, targetMin = 0, targetMax = 0;
        double diffMin = 0, diffMax = 0;
    };
    struct Columns {
        std::vector<Column> columns;
        double maxValue = 0;   // largest source or target value in the window
        double maxAbsDiff = 0; // largest |difference| in the window
    };
    /// Aggregates points [first, end) into at most `widthPx` columns (fewer when zoomed in: one
    /// per point).
    Columns columns(std::uint32_t first, std::uint32_t end, int widthPx) const;
};

} // namespace tilescope::gui
