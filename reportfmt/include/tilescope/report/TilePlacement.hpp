#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::report {

/// Where each tile sits on its IPU's die, so views can show tiles in physical order or as a
/// floor plan. Every IPU's die is a grid of `columns` x `rows` cells (row 0 at the top); `x[t]`
/// and `y[t]` are the cell of global tile t (ipu * tilesPerIpu + tile). Positions are per tile,
/// not per IPU, because a repaired chip may place its tiles differently from its neighbours.
/// Stored in the `tile_placement` table (format v4); empty when a report records none.
struct TilePlacement {
    std::uint32_t columns = 0;
    std::uint32_t rows = 0;
    std::vector<std::uint32_t> x;
    std::vector<std::uint32_t> y;

    bool empty() const { return x.empty(); }

    /// Global tiles in physical order: IPU by IPU, then die column left to right, then row from
    /// the top. order[position] is a global tile.
    std::vector<std::uint32_t> physicalOrder(std::uint32_t tilesPerIpu) const;

    /// What is inconsistent for a target of numIpus x tilesPerIpu tiles (wrong lengths, a cell
    /// outside the grid, two tiles of one IPU in one cell), or an empty string.
    std::string problem(std::uint32_t numIpus, std::uint32_t tilesPerIpu) const;

    /// The floor plan the simulator models: columns of `tilesPerColumn` tiles above and below a
    /// horizontal exchange spine (rows [0, tilesPerColumn) above it, the rest below). Consecutive
    /// software tile ids come in pairs that share an exchange port; pairs alternate between the
    /// two sides, so a run of software ids spreads its exchange traffic over both halves of the
    /// spine. On each side a column fills outward from the spine, two tiles per pair.
    /// `tilesPerColumn` is rounded up to even and shrunk for IPUs too small to fill one column
    /// pair.
    static TilePlacement spineColumns(std::uint32_t numIpus, std::uint32_t tilesPerIpu,
                                      std::uint32_t tilesPerColumn);
};

} // namespace tilescope::report
