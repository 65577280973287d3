#pragma once
// The system analyser's aggregated flame graph: all threads of a process merged into one flame.

#include "TimelineModel.hpp"

#include <vector>

namespace tilescope::gui {

/// One depth of a process's aggregated flame from the same depth of each of its threads: the
/// union of the threads' boxes in time. Boxes that overlap become one box over their union
/// (`aggregated`, counts summed, the name of the longest, `busy` the largest share, no event
/// id); a box that overlaps nothing is kept as it is, so a lone event stays clickable.
std::vector<TimelineModel::Box>
mergeThreadFlames(const std::vector<std::vector<TimelineModel::Box>>& perThread);

} // namespace tilescope::gui
