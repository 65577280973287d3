#pragma once

#include <algorithm>

namespace tilescope::gui {

/// The index of the column of `columns` (sorted by start, not overlapping) whose [start, end)
/// holds `x`, or -1 for a gap or outside them all: what a chart's hover and click land on.
/// `start(column)` and `end(column)` read a column's bounds in the chart's x domain.
template <class Columns, class Start, class End>
int columnContaining(const Columns& columns, double x, Start start, End end) {
    auto it = std::upper_bound(columns.begin(), columns.end(), x,
                               [&](double v, const auto& c) { return v < double(start(c)); });
    if (it == columns.begin())
        return -1;
    --it;
    return x < double(end(*it)) ? int(it - columns.begin()) : -1;
}

} // namespace tilescope::gui
