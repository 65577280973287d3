#pragma once

#include <QString>
#include <cmath>

namespace tilescope::gui {

/// A duration in nanoseconds for people: "12.3 ms", "450 ns", three significant decimals below
/// ten units.
inline QString formatDuration(double ns) {
    const double a = std::abs(ns);
    if (a >= 1e9)
        return QStringLiteral("%1 s").arg(ns / 1e9, 0, 'f', a >= 1e10 ? 2 : 3);
    if (a >= 1e6)
        return QStringLiteral("%1 ms").arg(ns / 1e6, 0, 'f', a >= 1e7 ? 2 : 3);
    if (a >= 1e3)
        return QStringLiteral("%1 µs").arg(ns / 1e3, 0, 'f', a >= 1e4 ? 2 : 3);
    return QStringLiteral("%1 ns").arg(std::llround(ns));
}

} // namespace tilescope::gui
