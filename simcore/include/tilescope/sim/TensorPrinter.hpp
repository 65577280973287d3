#pragma once
// Formats tensor values as Poplar's PrintTensor does.

#include "tilescope/sim/ElementType.hpp"

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace tilescope::sim {

/// Writes "<title>: [v0 v1 ...]\n". Rank-0 tensors print the bare value; rank > 1 nests one
/// bracket per dimension, inner rows on their own lines indented by depth. Floating-point values
/// use 7 decimals (1.5000000), integers print exactly.
void printTensor(std::ostream& out, const std::string& title, ElementType type,
                 const std::vector<std::size_t>& shape, const std::vector<std::byte>& data);

} // namespace tilescope::sim
