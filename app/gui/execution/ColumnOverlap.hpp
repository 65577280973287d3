#pragma once

#include <algorithm>
#include <iterator>

namespace tilescope::gui {

/// Calls `add(column, share)` for each column of `columns` (sorted by firstCycle, each covering
/// [firstCycle, endCycle)) that a pyramid bucket covering cycles [begin, end) overlaps, `share`
/// being the fraction of the bucket inside that column. Canvases spread buckets this way so that
/// buckets wider or narrower than a pixel column both draw without gaps.
template <class Columns, class Add>
void forEachOverlappedColumn(Columns& columns, double begin, double end, Add&& add) {
    if (end <= begin || columns.empty())
        return;
    auto it = std::upper_bound(columns.begin(), columns.end(), begin,
                               [](double b, const auto& c) { return b < double(c.firstCycle); });
    if (it != columns.begin())
        --it;
    for (; it != columns.end() && double(it->firstCycle) < end; ++it) {
        const double overlap =
            std::min(double(it->endCycle), end) - std::max(double(it->firstCycle), begin);
        if (overlap > 0)
            add(*it, overlap / (end - begin));
    }
}

} // namespace tilescope::gui
