#pragma once
// The packed form of one tile's memory map (tile_allocation.allocations, format v6): a varint
// count, then per allocation the varints address, bytes, region id, category id, variable id + 1,
// first step + 1 and last step + 1 (0: none). Varints are little-endian base-128.

#include "tilescope/report/ProfileTypes.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace tilescope::report::detail {

std::string encodeTileAllocations(const std::vector<TileAllocation>& allocations);
/// Throws ReportError (without a path) when the blob is damaged.
std::vector<TileAllocation> decodeTileAllocations(std::string_view blob);

} // namespace tilescope::report::detail
