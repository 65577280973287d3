#include "tilescope/sim/TileMemoryLayout.hpp"

#include <algorithm>

namespace tilescope::sim {

using capture::MemoryCategory;
using capture::MemoryRegionKind;

TileMemoryLayout::TileMemoryLayout(const TargetSpec& target)
    : nonInterleavedEnd_(target.nonInterleavedBytesPerTile()), end_(target.bytesPerTile),
      elementBytes_(target.memoryElementBytes) {}

std::vector<capture::MemoryRegionRecord> TileMemoryLayout::regions() const {
    std::vector<capture::MemoryRegionRecord> r;
    r.push_back({MemoryRegionKind::NonInterleaved, 0, nonInterleavedEnd_});
    if (end_ > nonInterleavedEnd_)
        r.push_back({MemoryRegionKind::Interleaved, nonInterleavedEnd_, end_ - nonInterleavedEnd_});
    return r;
}

TileMemoryUsage TileMemoryLayout::place(const std::vector<TileMemoryItem>& items) const {
    struct Region {
        MemoryRegionKind kind;
        std::uint64_t start, cursor, end;
    };
    Region regions[2] = {
        {MemoryRegionKind::NonInterleaved, 0, 0, nonInterleavedEnd_},
        {MemoryRegionKind::Interleaved, nonInterleavedEnd_, nonInterleavedEnd_, end_}};
    const bool hasInterleaved = end_ > nonInterleavedEnd_;
    TileMemoryUsage usage;
    auto add = [&](MemoryCategory c, MemoryRegionKind r, std::uint64_t b) {
        usage.bytes[static_cast<std::size_t>(c)][static_cast<std::size_t>(r)] += b;
        usage.total += b;
    };
    // The first address at or after `at` where `bytes` can start: aligned, and not straddling a
    // memory element if it fits in one.
    auto startFor = [this](std::uint64_t at, std::uint64_t bytes, std::uint64_t align,
                           bool isPool) {
        std::uint64_t start = (at + align - 1) / align * align;
        if (elementBytes_ && !isPool && bytes <= elementBytes_ &&
            start / elementBytes_ != (start + bytes - 1) / elementBytes_)
            start = (start / elementBytes_ + 1) * elementBytes_;
        return start;
    };
    usage.itemRegions.assign(items.size(), MemoryRegionKind::NonInterleaved);
    usage.itemStarts.assign(items.size(), 0);
    for (std::size_t index = 0; index < items.size(); ++index) {
        const auto& item = items[index];
        if (item.bytes == 0)
            continue;
        const std::uint64_t align = item.alignment ? item.alignment : 1;
        Region* order[2] = {&regions[0], &regions[1]};
        if (item.preferInterleaved && hasInterleaved)
            std::swap(order[0], order[1]);
        Region* chosen = nullptr;
        for (Region* r : order) {
            if (startFor(r->cursor, item.bytes, align, item.isPool) + item.bytes <= r->end) {
                chosen = r;
                break;
            }
        }
        if (!chosen) // fits nowhere: overflow the preferred region so the excess can be reported
            chosen = order[0];
        usage.itemRegions[index] = chosen->kind;
        const std::uint64_t start = startFor(chosen->cursor, item.bytes, align, item.isPool);
        usage.itemStarts[index] = start;
        add(item.category, chosen->kind, item.bytes);
        const std::uint64_t before = chosen->cursor > chosen->end ? chosen->cursor : chosen->end;
        chosen->cursor = start + item.bytes;
        if (chosen->cursor > before)
            usage.overflow += chosen->cursor - before;
    }
    // Gaps as Poplar counts them ("including gaps"): a tile uses its memory from the bottom up to
    // the last byte of the highest object, so everything unused below it is a gap: padding, the
    // space kept so small objects do not straddle memory elements and, when anything lies in the
    // interleaved region, all the free non-interleaved memory beneath it.
    const bool interleavedUsed = hasInterleaved && regions[1].cursor > regions[1].start;
    for (std::size_t r = 0; r < 2; ++r) {
        const Region& region = regions[r];
        std::uint64_t top = region.cursor;
        if (r == 0 && interleavedUsed)
            top = std::max(top, region.end);
        std::uint64_t used = 0;
        for (const auto& category : usage.bytes)
            used += category[static_cast<std::size_t>(region.kind)];
        if (top - region.start > used)
            add(MemoryCategory::Gap, region.kind, top - region.start - used);
    }
    return usage;
}

} // namespace tilescope::sim
