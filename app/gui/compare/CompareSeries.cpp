#include "CompareSeries.hpp"

#include <algorithm>
#include <cmath>

namespace tilescope::gui {

CompareSeries::Columns CompareSeries::columns(std::uint32_t first, std::uint32_t end,
                                              int widthPx) const {
    Columns out;
    end = std::min<std::uint32_t>(end, std::uint32_t(size()));
    if (first >= end || widthPx <= 0)
        return out;
    const std::uint32_t points = end - first;
    const std::uint32_t count = std::min<std::uint32_t>(points, std::uint32_t(widthPx));
    out.columns.reserve(count);
    for (std::uint32_t c = 0; c < count; ++c) {
        Column col;
        col.first = first + std::uint32_t(std::uint64_t(points) * c / count);
        col.end = first + std::uint32_t(std::uint64_t(points) * (c + 1) / count);
        bool anyDiff = false;
        for (std::uint32_t i = col.first; i < col.end; ++i) {
            if (inSource(i)) {
                col.sourceMin = col.hasSource ? std::min(col.sourceMin, source[i]) : source[i];
                col.sourceMax = col.hasSource ? std::max(col.sourceMax, source[i]) : source[i];
                col.hasSource = true;
            }
            if (inTarget(i)) {
                col.targetMin = col.hasTarget ? std::min(col.targetMin, target[i]) : target[i];
                col.targetMax = col.hasTarget ? std::max(col.targetMax, target[i]) : target[i];
                col.hasTarget = true;
            }
            const double d = difference(i);
            col.diffMin = anyDiff ? std::min(col.diffMin, d) : d;
            col.diffMax = anyDiff ? std::max(col.diffMax, d) : d;
            anyDiff = true;
        }
        if (col.hasSource)
            out.maxValue = std::max(out.maxValue, col.sourceMax);
        if (col.hasTarget)
            out.maxValue = std::max(out.maxValue, col.targetMax);
        out.maxAbsDiff = std::max({out.maxAbsDiff, std::abs(col.diffMin), std::abs(col.diffMax)});
        out.columns.push_back(col);
    }
    return out;
}

} // namespace tilescope::gui
