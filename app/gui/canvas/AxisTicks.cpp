#include "AxisTicks.hpp"

#include <algorithm>
#include <cmath>

namespace tilescope::gui {

std::vector<double> niceTicks(double lo, double hi, int maxTicks, bool integerOnly) {
    std::vector<double> ticks;
    if (!(hi > lo) || maxTicks < 1 || !std::isfinite(lo) || !std::isfinite(hi))
        return ticks;
    const double rough = (hi - lo) / maxTicks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
    double step = magnitude;
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        step = m * magnitude;
        if (step >= rough)
            break;
    }
    if (integerOnly)
        step = std::max(1.0, std::round(step));
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step)
        ticks.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    return ticks;
}

} // namespace tilescope::gui
