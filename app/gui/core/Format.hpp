#pragma once

#include <QString>
#include <cstdint>

namespace tilescope::gui {

/// Human-readable quantities shared by tables, tooltips and chart axes: binary byte units (the
/// IPU's memory is sized in KiB), grouped integers, and cycle counts ("1 234 cycles (0.93 µs)")
/// with the time at the target's clock when it is known, and host-trace durations.
QString formatBytes(double bytes);
QString formatCount(std::int64_t value);
QString formatPercent(double fraction);
QString formatCycles(std::uint64_t cycles, double clockHz);
/// A duration in nanoseconds for people: "12.3 ms", "450 ns", three significant decimals below
/// ten units.
QString formatDuration(double ns);

} // namespace tilescope::gui
