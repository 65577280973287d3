#include "Format.hpp"

#include <QLocale>
#include <cmath>

namespace tilescope::gui {

QString formatBytes(double bytes) {
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    double value = bytes;
    while (std::abs(value) >= 1024.0 && unit < 4) {
        value /= 1024.0;
        ++unit;
    }
    if (unit == 0)
        return QStringLiteral("%1 B").arg(static_cast<long long>(std::llround(value)));
    // Three significant digits: enough to compare tiles, short enough for an axis label.
    const int decimals = std::abs(value) >= 100 ? 0 : std::abs(value) >= 10 ? 1 : 2;
    return QStringLiteral("%1 %2").arg(value, 0, 'f', decimals).arg(QLatin1String(units[unit]));
}

QString formatCount(std::int64_t value) {
    // Digits grouped by thin spaces (SI style): readable in any locale and never mistaken for a
    // decimal separator. QLocale::c() does not group, so English grouping is rewritten.
    static const QLocale english(QLocale::English);
    return english.toString(static_cast<qlonglong>(value)).replace(QLatin1Char(','), QChar(0x2009));
}

QString formatPercent(double fraction) {
    return QStringLiteral("%1 %").arg(fraction * 100.0, 0, 'f', 1);
}

QString formatCycles(std::uint64_t cycles, double clockHz) {
    const QString count = QStringLiteral("%1 cycles").arg(formatCount(std::int64_t(cycles)));
    if (clockHz <= 0)
        return count;
    const double us = static_cast<double>(cycles) / clockHz * 1e6;
    if (us >= 1000.0)
        return QStringLiteral("%1 (%2 ms)").arg(count).arg(us / 1000.0, 0, 'f', 2);
    return QStringLiteral("%1 (%2 µs)").arg(count).arg(us, 0, 'f', 2);
}

QString formatDuration(double ns) {
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
