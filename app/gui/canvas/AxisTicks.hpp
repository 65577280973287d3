#pragma once

#include <vector>

namespace tilescope::gui {

/// Round-numbered tick positions covering [lo, hi]: at most about `maxTicks` ticks spaced 1, 2 or
/// 5 times a power of ten (whole numbers only when `integerOnly`, for tiles and steps). Charts
/// call it with a tick count derived from their pixel size and the label font.
std::vector<double> niceTicks(double lo, double hi, int maxTicks, bool integerOnly = false);

} // namespace tilescope::gui
