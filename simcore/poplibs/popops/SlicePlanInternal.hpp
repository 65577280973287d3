#pragma once
// What a popops::SlicePlan holds, and the planner shared by embedding::plan and the calls made
// without a plan.

#include "popops/DynamicSlice.hpp"

#include <cstddef>
#include <string>

namespace popops {

/// The split of an embedding of numEntries x elemsPerEntry over the tiles: `slicedSplit` parts
/// of whole entries times `unslicedSplit` blocks of elements (in grains of `unslicedGrain`), the
/// (part, block) pair on tile part * unslicedSplit + block.
class SlicePlanInternal {
public:
    bool isNull = true; ///< a default-constructed plan: the calls plan for themselves
    std::size_t numEntries = 0;
    std::size_t elemsPerEntry = 0;
    unsigned slicedSplit = 1;
    unsigned unslicedSplit = 1;
    unsigned unslicedGrain = 1;
    bool usedForSlice = true;
    bool usedForUpdate = true;
    std::string operationForUpdate = "add";

    std::size_t entriesPerPart() const { return (numEntries + slicedSplit - 1) / slicedSplit; }
    std::size_t elemsPerBlock() const {
        const std::size_t grains = (elemsPerEntry + unslicedGrain - 1) / unslicedGrain;
        return (grains + unslicedSplit - 1) / unslicedSplit * unslicedGrain;
    }
    unsigned tileOf(unsigned part, unsigned block) const { return part * unslicedSplit + block; }
};

namespace detail {
/// Plans an embedding of numEntries x elemsPerEntry: blocks of elements over as many tiles as
/// they fill, then the entries split into the fewest parts that keep each tile's share within
/// `memoryProportion` of its memory.
SlicePlanInternal planEmbedding(const poplar::Target& target, const poplar::Type& type,
                                std::size_t numEntries, std::size_t elemsPerEntry,
                                double memoryProportion);
} // namespace detail

} // namespace popops
