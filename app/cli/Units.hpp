#pragma once
// Human-readable figures for the text output of info and summary.

#include <cstdint>
#include <string>

namespace tilescope::cli {

/// 1234567 -> "1,234,567".
std::string groupDigits(std::uint64_t value);
/// Binary units with the exact figure: "1.25 MiB (1,310,720 bytes)"; below 1 KiB just "512 bytes".
std::string formatBytes(std::uint64_t bytes);
/// The short form without the exact figure: "1.25 MiB".
std::string formatBytesShort(std::uint64_t bytes);
/// A duration in the largest unit that keeps it >= 1: "950 ns", "12.5 us", "3.21 ms", "1.234 s".
std::string formatDurationNs(double nanoseconds);
/// "1.33 GHz".
std::string formatClock(double hertz);
/// "12,345 cycles (9.28 us at 1.33 GHz)"; cycles only when the clock is unknown.
std::string formatCycles(std::uint64_t cycles, double clockHz);
/// Nanoseconds since the Unix epoch as ISO 8601 UTC with milliseconds.
std::string formatUtcNs(std::int64_t nanoseconds);
/// part / whole as "42.0%" ("-" when whole is 0).
std::string formatPercent(double part, double whole);

} // namespace tilescope::cli
