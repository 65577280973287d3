#pragma once
// The order sorting and top-k operations return their results in.

#include <iosfwd>

namespace popops {

/// The order a sorting operation must return its results in. NONE leaves the order to the
/// implementation (TileScope's topK then returns the results sorted, best first).
enum class SortOrder {
    NONE,       ///< no order required
    ASCENDING,  ///< smallest first
    DESCENDING, ///< largest first
};

/// Prints the enumerator's name ("NONE", "ASCENDING" or "DESCENDING").
std::ostream& operator<<(std::ostream& os, const SortOrder& o);

} // namespace popops
