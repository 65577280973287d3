#include "Units.hpp"

#include <array>
#include <cmath>
#include <ctime>
#include <fmt/format.h>

namespace tilescope::cli {

std::string groupDigits(std::uint64_t value) {
    const std::string digits = std::to_string(value);
    std::string out;
    out.reserve(digits.size() + digits.size() / 3);
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

std::string formatBytesShort(std::uint64_t bytes) {
    static constexpr std::array<const char*, 6> kUnits = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (bytes < 1024)
        return fmt::format("{} bytes", bytes);
    double value = static_cast<double>(bytes) / 1024.0;
    std::size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < kUnits.size()) {
        value /= 1024.0;
        ++unit;
    }
    return fmt::format("{:.2f} {}", value, kUnits[unit]);
}

std::string formatBytes(std::uint64_t bytes) {
    if (bytes < 1024)
        return formatBytesShort(bytes);
    return fmt::format("{} ({} bytes)", formatBytesShort(bytes), groupDigits(bytes));
}

std::string formatDurationNs(double ns) {
    const double magnitude = std::fabs(ns);
    if (magnitude < 1e3)
        return fmt::format("{:.0f} ns", ns);
    if (magnitude < 1e6)
        return fmt::format("{:.3g} us", ns / 1e3);
    if (magnitude < 1e9)
        return fmt::format("{:.3g} ms", ns / 1e6);
    return fmt::format("{:.3f} s", ns / 1e9);
}

std::string formatClock(double hertz) {
    if (hertz >= 1e9)
        return fmt::format("{:.3g} GHz", hertz / 1e9);
    if (hertz >= 1e6)
        return fmt::format("{:.3g} MHz", hertz / 1e6);
    return fmt::format("{:.3g} Hz", hertz);
}

std::string formatCycles(std::uint64_t cycles, double clockHz) {
    if (!(clockHz > 0))
        return fmt::format("{} cycles", groupDigits(cycles));
    return fmt::format("{} cycles ({} at {})", groupDigits(cycles),
                       formatDurationNs(static_cast<double>(cycles) / clockHz * 1e9),
                       formatClock(clockHz));
}

std::string formatUtcNs(std::int64_t ns) {
    // Floor division so that times before 1970 still split into seconds and a positive remainder.
    std::int64_t seconds = ns / 1'000'000'000;
    std::int64_t rest = ns % 1'000'000'000;
    if (rest < 0) {
        rest += 1'000'000'000;
        --seconds;
    }
    const auto t = static_cast<std::time_t>(seconds);
    std::tm utc{};
    if (!gmtime_r(&t, &utc))
        return fmt::format("{} ns since the epoch", ns);
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", utc.tm_year + 1900,
                       utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                       rest / 1'000'000);
}

std::string formatPercent(double part, double whole) {
    if (!(whole > 0))
        return "-";
    return fmt::format("{:.1f}%", 100.0 * part / whole);
}

} // namespace tilescope::cli
