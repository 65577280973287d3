#pragma once
// Stacked-area counter charts: each series drawn on top of the ones before it.

#include "TimelineModel.hpp"

#include <vector>

namespace tilescope::gui {

/// The series of one counter graph stacked in order: for every time any series has a point, the
/// running sum of each series' value held at that time (a counter keeps its value until its next
/// sample; before its first sample it counts 0). Result i has, per time, `min` = the top of the
/// series below (the band's base) and `max` = `mean` = that base plus series i's value.
std::vector<std::vector<TimelineModel::Point>>
stackSeries(const std::vector<TimelineModel::Series>& series);

} // namespace tilescope::gui
