#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tilescope::report {

/// Compact encoding of one value per tile (or per IPU, or per anything indexed densely), used for
/// every per-tile column of the report format: memory per tile, cycles per tile of a step,
/// instances per tile. A blob starts with one tag byte and the element count as a LEB128 varint,
/// followed by the payload:
///   1 Packed32  count x uint32 little-endian (O(1) random access)
///   2 Packed64  count x uint64 little-endian
///   3 RunLength varint pairs (run length, value) covering all elements
///   4 Sparse    varint pairs (index delta from the previous non-zero index + 1, value), zeros
///   implied
/// The encoder picks the smallest form. Decoding validates everything, so a damaged blob raises
/// ReportError instead of reading out of bounds.
struct TileSeries {
    enum class Encoding : std::uint8_t { Packed32 = 1, Packed64 = 2, RunLength = 3, Sparse = 4 };

    /// A run of `count` equal values, for building run-length blobs without a dense vector.
    struct Run {
        std::uint64_t count;
        std::uint64_t value;
    };

    static std::string encode(std::span<const std::uint64_t> values);
    /// Run-length blob from runs (zero-length runs are skipped, equal neighbours merged).
    static std::string encodeRuns(std::span<const Run> runs);
    /// Appends to `out` instead of allocating (the writer's hot path reuses one buffer).
    static void encode(std::span<const std::uint64_t> values, std::string& out);

    static std::vector<std::uint64_t> decode(const void* data, std::size_t size);
    /// Decodes into `out` (resized to the element count).
    static void decode(const void* data, std::size_t size, std::vector<std::uint64_t>& out);
    /// Elements [first, first + n) into `out` (resized to n; elements past the blob's count are
    /// 0). Packed forms read only the range; run-length and sparse forms scan up to its end
    /// without expanding the series.
    static void decodeRange(const void* data, std::size_t size, std::size_t first, std::size_t n,
                            std::vector<std::uint64_t>& out);
    /// Adds every element into `acc` (which must have the blob's element count); used to sum the
    /// per-tile bytes of many variables without a temporary vector each.
    static void accumulate(const void* data, std::size_t size, std::vector<std::uint64_t>& acc);
    /// Element count without decoding the payload.
    static std::size_t count(const void* data, std::size_t size);
};

} // namespace tilescope::report
