#pragma once
// What a popops::SlicePlan holds, and PopLibs' embedding planner that embedding::plan and the
// calls made without a plan share.

#include "popops/DynamicSlice.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace popops {

/// The options of an embedding plan that change the split (PopLibs' SliceOptions).
struct EmbeddingPlanOptions {
    bool usedForSlice = true;
    bool usedForUpdate = true;
    /// "add" (PopLibs' default), "max" or "none" (multiUpdate, which cannot split the lookups).
    std::string operationForUpdate = "add";
    double availableMemoryProportion = 0.6;
    bool onePointIndices = false; ///< indicesDistribution=onePoint: every index equal
    /// planConstraints: splits (and the unsliced grain) fixed by the caller; 0 leaves one free.
    unsigned lookupSplit = 0, slicedDimSplit = 0, unslicedDimSplit = 0, unslicedGrainSize = 0;
};

/// The estimates PopLibs' planner minimises for a split (EmbeddingEstimates in
/// lib/popops/DynamicSlice.cpp): cycles of the worst tile per stage, and temporary memory.
struct EmbeddingEstimates {
    std::uint64_t sliceFirstStageExchange = 0, sliceFirstStageCompute = 0;
    std::uint64_t sliceSecondStageExchange = 0, sliceSecondStageCompute = 0;
    std::uint64_t sliceTotal = 0;
    std::uint64_t updateRearrangeBase = 0, updateZeroPartials = 0;
    std::uint64_t updateFirstStageExchange = 0, updateFirstStageCompute = 0;
    std::uint64_t updateReduceExchange = 0, updateReduceCompute = 0, updateFinalElemwise = 0;
    std::uint64_t updateTotal = 0;
    std::uint64_t totalCycles = 0;
    std::uint64_t baseStorageBytesPerTile = 0;
    std::uint64_t peakTempBytes = 0;
};

/// The split of an embedding of numEntries x elemsPerEntry over the tiles, as PopLibs' plan
/// partitions it: `lookupSplit` groups of the indices, each over `slicedSplit` parts of whole
/// entries times `unslicedSplit` blocks of elements (in grains of `unslicedGrain`). The piece
/// (group, part, block) is on tile (group * slicedSplit + part) * unslicedSplit + block
/// (PopLibs' linearizeSliceIndices). Each (part, block) of the table is stored spread over the
/// tiles of its lookup groups.
class SlicePlanInternal {
public:
    bool isNull = true; ///< a default-constructed plan: the calls plan for themselves
    std::size_t numEntries = 0;
    std::size_t elemsPerEntry = 0;
    std::size_t numLookups = 1; ///< the lookups planned for
    unsigned slicedSplit = 1;
    unsigned unslicedSplit = 1;
    unsigned lookupSplit = 1;
    unsigned unslicedGrain = 1;
    bool usedForSlice = true;
    bool usedForUpdate = true;
    std::string operationForUpdate = "add";
    EmbeddingEstimates estimates; ///< the planner's figures for this split (not compared)

    std::size_t entriesPerPart() const { return (numEntries + slicedSplit - 1) / slicedSplit; }
    std::size_t elemsPerBlock() const {
        const std::size_t grains = (elemsPerEntry + unslicedGrain - 1) / unslicedGrain;
        return (grains + unslicedSplit - 1) / unslicedSplit * unslicedGrain;
    }
    /// Lookups per group when `n` indices are sliced or updated.
    std::size_t lookupsPerGroup(std::size_t n) const { return (n + lookupSplit - 1) / lookupSplit; }
    unsigned tileOf(unsigned group, unsigned part, unsigned block) const {
        return (group * slicedSplit + part) * unslicedSplit + block;
    }
    unsigned tilesUsed() const { return lookupSplit * slicedSplit * unslicedSplit; }
};

namespace detail {
/// PopLibs' embedding planner with its cycles objective (embedding::plan, lib/popops/
/// DynamicSlice.cpp): every canonical split of the table's elements, entries and the lookups
/// that fits the tiles is costed with PopLibs' model and the cheapest one whose temporary memory
/// fits `availableMemoryProportion` of a tile wins (any, if none fits).
SlicePlanInternal planEmbedding(const poplar::Target& target, const poplar::Type& type,
                                std::size_t numEntries, std::size_t elemsPerEntry,
                                std::size_t numLookups, const EmbeddingPlanOptions& options);
/// PopLibs' estimates for one split (unslicedSplit, slicedSplit, lookupSplit) of `plan`'s table.
EmbeddingEstimates estimateEmbedding(const poplar::Target& target, const poplar::Type& type,
                                     const SlicePlanInternal& plan,
                                     const EmbeddingPlanOptions& options);
} // namespace detail

} // namespace popops
