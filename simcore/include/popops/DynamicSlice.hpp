#pragma once
// popops::dynamicSlice and popops::dynamicUpdate: slices at offsets read from a device tensor at
// run time; popops::multiSlice and the multiUpdate family: many slices of one dimension at
// indices read at run time (embedding lookups and their gradients), planned by a SlicePlan; and
// the tensor-creation helpers for them.

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <poplar/ArrayRef.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <vector>

namespace popops {

/// PopLibs' slice planning cache. Only declared: the subset has no slice planner, so callers
/// pass nullptr (the default) and a given pointer is ignored.
class PlanningCache;

class SlicePlanInternal;

/// How a multiSlice or multiUpdate is laid out over the tiles: the lookups are split into
/// groups, the sliced dimension (the embedding's entries) into parts and the other elements
/// (each entry's columns) into blocks, one tile per (group, part, block). Made by
/// embedding::plan (PopLibs' planner, minimising cycles); a default-constructed plan is empty,
/// and the operations then use the plan for one lookup. Copyable and comparable, as PopLibs'
/// SlicePlan.
class SlicePlan {
public:
    SlicePlan();
    ~SlicePlan();
    SlicePlan(const SlicePlan& other);
    SlicePlan(SlicePlan&& other);
    SlicePlan& operator=(const SlicePlan& other);
    SlicePlan& operator=(SlicePlan&& other);

    friend std::ostream& operator<<(std::ostream& o, const SlicePlan& p);
    friend bool operator<(const SlicePlan& a, const SlicePlan& b) noexcept;
    friend bool operator==(const SlicePlan& a, const SlicePlan& b) noexcept;

    // Implementation
    explicit SlicePlan(std::unique_ptr<SlicePlanInternal> internal);
    SlicePlanInternal& getImpl() const { return *internal; }

private:
    std::unique_ptr<SlicePlanInternal> internal;
};
bool operator<(const SlicePlan& a, const SlicePlan& b) noexcept;
bool operator==(const SlicePlan& a, const SlicePlan& b) noexcept;
bool operator!=(const SlicePlan& a, const SlicePlan& b) noexcept;

/// A variable of `shape` and `type` for slicing in `dims` (each dimension of `dims` is sliced
/// with the matching entry of `sizes`): the elements of the unsliced dimensions are split over
/// the tiles from tile 0, at least `minGrainSize` per tile, each tile holding every row of the
/// sliced dimensions for its elements, so slicing needs no exchange.
poplar::Tensor createSliceableTensor(poplar::Graph& graph, const poplar::Type& type,
                                     const std::vector<std::size_t>& shape,
                                     const std::vector<std::size_t>& dims,
                                     const std::vector<std::size_t>& sizes,
                                     std::size_t minGrainSize = 0,
                                     const poplar::DebugContext& debugContext = {});

/// A variable of `shape` laid out as `plan` slices it: dimension dims[0] split into the plan's
/// parts and the remaining elements of each entry into its blocks, one tile per (part, block).
/// dims and sizes must be {d} and {1}.
poplar::Tensor createSliceableTensor(poplar::Graph& graph, const poplar::Type& type,
                                     const std::vector<std::size_t>& shape,
                                     const std::vector<std::size_t>& dims,
                                     const std::vector<std::size_t>& sizes, const SlicePlan& plan,
                                     const poplar::OptionFlags& options,
                                     const poplar::DebugContext& debugContext = {});

/// A variable for `numIndices` slices of a tensor of `shape` (shape {numIndices} followed by
/// `shape` with dims[0] of size 1), its blocks mapped where `plan` puts the slices' columns.
poplar::Tensor createSliceTensor(poplar::Graph& graph, const poplar::Type& type,
                                 const std::vector<std::size_t>& shape,
                                 const std::vector<std::size_t>& dims,
                                 const std::vector<std::size_t>& sizes, std::size_t numIndices,
                                 const SlicePlan& plan, const poplar::OptionFlags& options,
                                 const poplar::DebugContext& debugContext = {});

/// An UNSIGNED_INT variable of shape {numIndices, dims.size()} for the indices of a multiSlice
/// or multiUpdate, mapped linearly.
poplar::Tensor createIndicesTensor(poplar::Graph& graph, const std::vector<std::size_t>& dims,
                                   std::size_t numIndices, const SlicePlan& plan,
                                   const poplar::OptionFlags& options,
                                   const poplar::DebugContext& debugContext = {});

/// A variable to hold `numIndices` slices of `t`: shape {numIndices} followed by t's shape with
/// each dimension of `dims` replaced by the matching entry of `sizes`; mapped linearly.
poplar::Tensor createSliceTensor(poplar::Graph& graph, const poplar::Tensor& t,
                                 const std::vector<std::size_t>& dims,
                                 const std::vector<std::size_t>& sizes, std::size_t numIndices,
                                 const poplar::DebugContext& debugContext = {});

/// The sub-tensor of `t` starting at the offsets in `offset` (an UNSIGNED_INT tensor of
/// dims.size() elements, read by the vertices when `prog` runs) in each dimension of `dims`,
/// `sizes` long there and full in the other dimensions. Out-of-range offsets behave as
/// PopLibs' DynamicSlice vertices: an offset >= the dimension's size counts as 0, and a slice
/// that runs past the end of the dimension wraps around to its start. Returns a new variable.
poplar::Tensor dynamicSlice(poplar::Graph& graph, const poplar::Tensor& t,
                            const poplar::Tensor& offset, const std::vector<std::size_t>& dims,
                            const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                            const poplar::DebugContext& debugContext = {},
                            const poplar::OptionFlags& options = {},
                            PlanningCache* cache = nullptr);

/// Writes `s` into `t` at the offsets in `offset` (as dynamicSlice: same dims, sizes, offset
/// rules, and `s` has the shape dynamicSlice would return).
void dynamicUpdate(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                   const poplar::Tensor& offset, const std::vector<std::size_t>& dims,
                   const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                   const poplar::DebugContext& debugContext = {},
                   const poplar::OptionFlags& options = {}, PlanningCache* cache = nullptr);

/// Slices of `t` at each index in `offsets` (UNSIGNED_INT, shape {numIndices, 1} or
/// {numIndices}, read when `prog` runs) in dimension dims[0] (dims and sizes must be {d} and
/// {1}). Returns a new variable of shape {numIndices} followed by t's shape with dimension d of
/// size 1. An index >= t.dim(d) gives a slice of zeros.
poplar::Tensor multiSlice(poplar::Graph& graph, const poplar::Tensor& t,
                          const poplar::Tensor& offsets, const std::vector<std::size_t>& dims,
                          const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                          const SlicePlan& plan, const poplar::OptionFlags& options,
                          const poplar::DebugContext& debugContext = {});

/// As multiSlice, with indices known when the graph is built: a copy of each slice.
poplar::Tensor multiSlice(poplar::Graph& graph, const poplar::Tensor& t,
                          poplar::ArrayRef<unsigned> offsets, std::size_t dim,
                          poplar::program::Sequence& prog,
                          const poplar::DebugContext& debugContext = {});

/// For each i, t[offsets[i]] = s[i] in dimension dims[0] (`s` has the shape multiSlice returns);
/// indices >= t.dim(d) are ignored and for repeated indices the last write wins.
void multiUpdate(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                 const poplar::Tensor& offsets, const std::vector<std::size_t>& dims,
                 const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                 const SlicePlan& plan, const poplar::OptionFlags& options,
                 const poplar::DebugContext& debugContext = {});

/// For each i, t[offsets[i]] += scale * s[i] (repeated indices accumulate; indices >= t.dim(d)
/// are ignored). `scale` is a scalar tensor of t's type, or FLOAT or HALF for a HALF `t`.
void multiUpdateAdd(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                    const poplar::Tensor& offsets, const poplar::Tensor& scale,
                    const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                    poplar::program::Sequence& prog, const SlicePlan& plan,
                    const poplar::OptionFlags& options,
                    const poplar::DebugContext& debugContext = {});

/// For each i, t[offsets[i]] = max(t[offsets[i]], s[i]); indices >= t.dim(d) are ignored.
void multiUpdateMax(poplar::Graph& graph, const poplar::Tensor& t, const poplar::Tensor& s,
                    const poplar::Tensor& offsets, const std::vector<std::size_t>& dims,
                    const std::vector<std::size_t>& sizes, poplar::program::Sequence& prog,
                    const SlicePlan& plan, const poplar::OptionFlags& options,
                    const poplar::DebugContext& debugContext = {});

namespace embedding {

/// A plan for slicing and updating an embedding of `numEntries` entries of `outputSize`
/// elements of `dataType` with the given numbers of indices. Options, as PopLibs':
/// `usedForSlice`, `usedForUpdate` (true/false, not both false), `operationForUpdate`
/// (none, add, max), `availableMemoryProportion` (a positive number: the share of tile memory
/// the embedding may take on a tile), `indicesDistribution` (uniform, onePoint),
/// `planMinimisationTarget` (memory, cycles) and `indicesAreSorted` (true/false).
SlicePlan plan(const poplar::Graph& graph, const poplar::Type& dataType, std::size_t numEntries,
               std::size_t outputSize, const std::vector<std::size_t>& numLookups,
               const poplar::OptionFlags& options);

} // namespace embedding

} // namespace popops
