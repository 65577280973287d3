#pragma once
// What popops' multiSlice and multiUpdate family share: the sliced tensor viewed as a table of
// entries x elements (the sliced dimension rolled to the front), the checks of their arguments,
// the plan a call uses, and how a plan lays the table and the slices out over the tiles.

#include "popops/SlicePlanInternal.hpp"

#include <cstddef>
#include <poplar/Graph.hpp>
#include <string>
#include <utility>
#include <vector>

namespace popops::detail {

/// The plan text recorded on the operation.
std::string planText(const SlicePlanInternal& p);

/// Throws poplibs_error naming `api` unless `type` is FLOAT, HALF, INT or UNSIGNED_INT.
void checkSliceType(const std::string& api, const poplar::Type& type, const std::string& what);

/// Checks dims/sizes (one dimension, slices of 1) against a shape; returns the dimension.
std::size_t slicedDim(const std::string& api, const std::vector<std::size_t>& shape,
                      const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes);

/// The number of entries and elements per entry of `shape` sliced in `dim`.
std::pair<std::size_t, std::size_t> tableSize(const std::vector<std::size_t>& shape,
                                              std::size_t dim);

/// `t` as a table [entries, elements] with dimension `dim` first.
poplar::Tensor asTable(const poplar::Tensor& t, std::size_t dim);

/// The shape of `numIndices` slices of `shape` in `dim`.
std::vector<std::size_t> slicesShape(std::vector<std::size_t> shape, std::size_t dim,
                                     std::size_t numIndices);

/// Slices `s` (shape slicesShape) as a table [numIndices, elements].
poplar::Tensor slicesAsTable(const poplar::Tensor& s, std::size_t dim, std::size_t elems);

/// The offsets as a flat vector of UNSIGNED_INT indices ({n, 1} or {n}).
poplar::Tensor flatOffsets(const std::string& api, const poplar::Tensor& offsets);

/// The plan a call uses: the caller's when it is for this table, else PopLibs' plan for one
/// lookup with its default options (so a table created without a plan and the calls on it agree).
SlicePlanInternal resolvePlan(const std::string& api, const poplar::Graph& graph,
                              const poplar::Type& type, std::size_t entries, std::size_t elems,
                              const SlicePlan& plan);

/// [0, n) cut into at most `pieces` nearly equal non-empty ranges.
std::vector<std::pair<std::size_t, std::size_t>> splitRange(std::size_t n, std::size_t pieces);

/// A piece of the table: entries [r0, r1), elements [c0, c1) of part `part`, block `block`.
struct TablePiece {
    unsigned part, block;
    std::size_t r0, r1, c0, c1;
};
/// The non-empty pieces of the table under `p`.
std::vector<TablePiece> tablePieces(const SlicePlanInternal& p);

/// The lookups of group `g` out of `n`: [first, end), possibly empty.
std::pair<std::size_t, std::size_t> groupLookups(const SlicePlanInternal& p, unsigned g,
                                                 std::size_t n);

/// One run of a group's lookups at the second stage: lookups [begin, end) of group `group`,
/// written on the tiles of part `part` (one tile per block).
struct LookupRun {
    unsigned group, part;
    std::size_t begin, end;
};
/// Every group's lookups out of `n` split into runs over the parts' tiles (where PopLibs'
/// second stage writes each slice); empty runs are left out.
std::vector<LookupRun> lookupRuns(const SlicePlanInternal& p, std::size_t n);

/// Maps `table` ([entries, elements]) as `p` stores it: each piece's elements spread over its
/// lookup groups' tiles in grains.
void mapTable(poplar::Graph& graph, const poplar::Tensor& table, const SlicePlanInternal& p);

/// Maps `copies` ([lookupSplit, entries, elements]): group g's copy of each piece on that
/// group's tile for the piece.
void mapGroupCopies(poplar::Graph& graph, const poplar::Tensor& copies, const SlicePlanInternal& p);

/// Maps slices ([numIndices, elements]) where the slice's last stage writes them: the lookups
/// of group g, split into slicedSplit runs, run j with block b on tile (g, j, b).
void mapSlices(poplar::Graph& graph, const poplar::Tensor& slices, const SlicePlanInternal& p);

} // namespace popops::detail
