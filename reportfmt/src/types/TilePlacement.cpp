#include "tilescope/report/TilePlacement.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>

namespace tilescope::report {
namespace {
// A die grid larger than this is a damaged file, not a chip (1 M cells per IPU).
constexpr std::uint64_t kMaxCells = std::uint64_t{1} << 20;
} // namespace

std::vector<std::uint32_t> TilePlacement::physicalOrder(std::uint32_t tilesPerIpu) const {
    std::vector<std::uint32_t> order(x.size());
    std::iota(order.begin(), order.end(), 0u);
    if (tilesPerIpu == 0)
        return order;
    for (std::size_t first = 0; first < order.size(); first += tilesPerIpu) {
        const auto last = std::min(order.size(), first + tilesPerIpu);
        std::sort(order.begin() + std::ptrdiff_t(first), order.begin() + std::ptrdiff_t(last),
                  [this](std::uint32_t a, std::uint32_t b) {
                      return x[a] != x[b] ? x[a] < x[b] : y[a] < y[b];
                  });
    }
    return order;
}

std::string TilePlacement::problem(std::uint32_t numIpus, std::uint32_t tilesPerIpu) const {
    const std::uint64_t tiles = std::uint64_t{numIpus} * tilesPerIpu;
    if (x.size() != tiles || y.size() != tiles)
        return fmt::format("tile placement covers {} and {} tiles, the target has {}", x.size(),
                           y.size(), tiles);
    if (columns == 0 || rows == 0 || std::uint64_t{columns} * rows > kMaxCells)
        return fmt::format("tile placement has an implausible die grid of {} x {} cells", columns,
                           rows);
    if (std::uint64_t{columns} * rows < tilesPerIpu)
        return fmt::format("tile placement's die grid of {} x {} cells is smaller than the {} "
                           "tiles of an IPU",
                           columns, rows, tilesPerIpu);
    // owner[cell] is 1 + the tile of the current IPU in that cell; cleared tile by tile.
    std::vector<std::uint32_t> owner(std::size_t{columns} * rows);
    for (std::uint64_t first = 0; first < tiles; first += tilesPerIpu) {
        for (std::uint64_t t = first; t < first + tilesPerIpu; ++t) {
            if (x[t] >= columns || y[t] >= rows)
                return fmt::format("tile {} is placed at ({}, {}), outside the {} x {} die grid", t,
                                   x[t], y[t], columns, rows);
            auto& cell = owner[std::size_t{y[t]} * columns + x[t]];
            if (cell != 0)
                return fmt::format("tiles {} and {} are placed in the same cell ({}, {})",
                                   first + cell - 1, t, x[t], y[t]);
            cell = std::uint32_t(t - first) + 1;
        }
        for (std::uint64_t t = first; t < first + tilesPerIpu; ++t)
            owner[std::size_t{y[t]} * columns + x[t]] = 0;
    }
    return {};
}

TilePlacement TilePlacement::spineColumns(std::uint32_t numIpus, std::uint32_t tilesPerIpu,
                                          std::uint32_t tilesPerColumn) {
    TilePlacement p;
    if (numIpus == 0 || tilesPerIpu == 0)
        return p;
    const std::uint32_t pairs = (tilesPerIpu + 1) / 2;
    const std::uint32_t pairsPerSide = (pairs + 1) / 2;
    std::uint32_t column = std::max<std::uint32_t>(2, tilesPerColumn + tilesPerColumn % 2);
    column = std::min(column, 2 * pairsPerSide);
    const std::uint32_t pairsPerColumn = column / 2;
    p.columns = (pairsPerSide + pairsPerColumn - 1) / pairsPerColumn;
    p.rows = 2 * column;
    p.x.resize(std::size_t{numIpus} * tilesPerIpu);
    p.y.resize(p.x.size());
    for (std::uint32_t s = 0; s < tilesPerIpu; ++s) {
        const std::uint32_t pair = s / 2, side = pair % 2, k = pair / 2;
        const std::uint32_t slot = (k % pairsPerColumn) * 2 + s % 2;
        const std::uint32_t cx = k / pairsPerColumn;
        const std::uint32_t cy = side == 0 ? column - 1 - slot : column + slot;
        for (std::uint32_t ipu = 0; ipu < numIpus; ++ipu) {
            p.x[std::size_t{ipu} * tilesPerIpu + s] = cx;
            p.y[std::size_t{ipu} * tilesPerIpu + s] = cy;
        }
    }
    return p;
}

} // namespace tilescope::report
