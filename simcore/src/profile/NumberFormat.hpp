#pragma once
// Number formatting shared by the simulator's messages and summaries.

#include <cstdint>
#include <string>

namespace tilescope::sim {

/// 1234567 -> "1,234,567".
inline std::string groupDigits(std::uint64_t v) {
    const std::string digits = std::to_string(v);
    std::string out;
    out.reserve(digits.size() + digits.size() / 3);
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out.push_back(',');
        out.push_back(digits[i]);
    }
    return out;
}

} // namespace tilescope::sim
