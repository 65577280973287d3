#include "ExecutionBlockRows.hpp"

#include <algorithm>

namespace tilescope::gui {

std::uint32_t BlockRows::totalRows() const {
    std::uint32_t n = 0;
    for (auto d : depths)
        n += d;
    return n;
}

std::uint32_t BlockRows::firstRow(std::uint32_t band) const {
    std::uint32_t n = 0;
    for (std::uint32_t b = 0; b < band && b < depths.size(); ++b)
        n += depths[b];
    return n;
}

BlockRows BlockRows::fetch(const report::ProfileReader& reader, std::int64_t runIndex,
                           std::uint64_t firstCycle, std::uint64_t endCycle,
                           std::int64_t maxBlocks) {
    BlockRows rows;
    std::vector<std::string> names;
    const auto blocks = reader.blocksOfRun(runIndex, firstCycle, endCycle, maxBlocks + 1, &names);
    rows.truncated = std::int64_t(blocks.size()) > maxBlocks;
    const std::size_t n = std::min(blocks.size(), std::size_t(std::max<std::int64_t>(0, maxBlocks)));
    // Blocks come by tile, then first cycle with enclosing blocks first: a stack of the open
    // blocks' ends gives each block its depth. Blocks that started before the window still
    // overlap it, so their parents are in the list too.
    std::vector<std::uint64_t> open;
    for (std::size_t i = 0; i < n; ++i) {
        const auto& b = blocks[i];
        if (rows.tiles.empty() || rows.tiles.back() != b.tile) {
            rows.tiles.push_back(b.tile);
            rows.depths.push_back(1);
            open.clear();
        }
        const std::uint64_t from = b.cyclesFrom - b.runStartCycle;
        const std::uint64_t to = b.cyclesTo - b.runStartCycle;
        while (!open.empty() && open.back() <= from)
            open.pop_back();
        Bar bar;
        bar.startCycle = from;
        bar.endCycle = to;
        bar.band = std::uint32_t(rows.tiles.size() - 1);
        bar.depth = std::uint32_t(open.size());
        bar.kind = b.kind;
        bar.name = names[i];
        bar.dropped = b.dropped;
        rows.depths.back() = std::max(rows.depths.back(), bar.depth + 1);
        open.push_back(to);
        rows.bars.push_back(std::move(bar));
    }
    return rows;
}

} // namespace tilescope::gui
