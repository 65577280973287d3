#pragma once
// Value bytes as the Graph face takes them and as the graph model stores them.

#include <cstddef>
#include <cstring>
#include <vector>

namespace poplar {

/// The header's host-side value bytes (unsigned char, as public headers are C++11) as the model's
/// device bytes.
inline std::vector<std::byte> deviceBytes(const std::vector<unsigned char>& bytes) {
    std::vector<std::byte> out(bytes.size());
    if (!bytes.empty())
        std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
}

} // namespace poplar
