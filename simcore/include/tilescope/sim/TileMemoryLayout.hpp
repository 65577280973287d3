#pragma once
// Places the objects of one tile in its memory regions and accounts bytes by category.

#include "tilescope/capture/ProfileRecords.hpp"
#include "tilescope/sim/TargetSpec.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace tilescope::sim {

/// One object to place: code, vertex data, a variable's part on this tile, a buffer, the stack.
struct TileMemoryItem {
    capture::MemoryCategory category = capture::MemoryCategory::Gap;
    std::uint64_t bytes = 0;
    std::uint64_t alignment = 1;
    /// Data a vertex field declares interleaved (Vector<..., Interleaved = true>: loads or stores
    /// of 128 bits) goes to the interleaved region first on Mk2; everything else (code, vertex
    /// state, the stack, other variables) to the non-interleaved region first. Either overflows
    /// into the other region when its own is full.
    bool preferInterleaved = false;
    /// A pool of several objects (the not-always-live variables of a tile): it may cross memory
    /// element boundaries as a whole, since each of its objects is placed within the pool.
    bool isPool = false;
};

/// Bytes of a tile by category and region, after placement.
struct TileMemoryUsage {
    std::array<std::array<std::uint64_t, capture::kNumMemoryRegions>, capture::kNumMemoryCategories>
        bytes{};
    std::uint64_t total = 0;    ///< sum over categories and regions, gaps included
    std::uint64_t overflow = 0; ///< bytes placed beyond the end of their region
    std::vector<capture::MemoryRegionKind> itemRegions; ///< per item given, where it went
    std::vector<std::uint64_t> itemStarts;              ///< per item given, its tile address
};

/// First-fit placement into the target's regions in the order given: the non-interleaved region
/// at the low addresses, then (Mk2) the interleaved one. A tile's memory counts from its bottom
/// to the last byte of its highest object (Poplar's "including gaps"); what is unused below that
/// is accounted as `gap`: alignment padding, the space skipped so that an object no larger than a
/// memory element does not straddle two and, when the interleaved region holds anything, the
/// free part of the non-interleaved region beneath it.
/// An object that fits in neither region is placed past the end of its preferred region, so the
/// excess can be reported rather than the compile stopping at the first object that does not fit.
class TileMemoryLayout {
public:
    explicit TileMemoryLayout(const TargetSpec& target);
    TileMemoryUsage place(const std::vector<TileMemoryItem>& items) const;
    std::vector<capture::MemoryRegionRecord> regions() const;

private:
    std::uint64_t nonInterleavedEnd_;
    std::uint64_t end_;
    std::uint64_t elementBytes_;
};

} // namespace tilescope::sim
