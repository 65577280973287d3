#include "tilescope/sim/TileMemoryLayout.hpp"

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
        std::uint64_t cursor, end;
    };
    Region regions[2] = {{MemoryRegionKind::NonInterleaved, 0, nonInterleavedEnd_},
                         {MemoryRegionKind::Interleaved, nonInterleavedEnd_, end_}};
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
        add(MemoryCategory::Gap, chosen->kind, start - chosen->cursor);
        add(item.category, chosen->kind, item.bytes);
        const std::uint64_t before = chosen->cursor > chosen->end ? chosen->cursor : chosen->end;
        chosen->cursor = start + item.bytes;
        if (chosen->cursor > before)
            usage.overflow += chosen->cursor - before;
    }
    return usage;
}

} // namespace tilescope::sim
