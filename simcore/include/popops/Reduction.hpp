#pragma once
// popops::reduce and reduceWithOutput: reductions over chosen dimensions.

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <vector>

namespace popops {

/// The reduction operation. SQUARE_ADD sums the squares of the inputs.
enum class Operation { ADD, MUL, MIN, MAX, SQUARE_ADD };

/// What to reduce with: the operation and whether the result is added to (update) rather than
/// written over the output of reduceWithOutput.
struct ReduceParams {
    ReduceParams() = default;
    ReduceParams(Operation op, bool update = false) : op(op), update(update) {}
    Operation op = Operation::ADD;
    bool update = false;
};

/// Reduces `in` over `dims` (any subset of its dimensions, in any order; the others keep their
/// order) into a new tensor of `outType`, each element mapped to the tile holding most of its
/// inputs (linearly if `in` is not fully mapped). Reducing over no dimension copies.
poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Type& outType,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {});
/// As above with the output type of `in`.
poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {});
/// Reduces into an existing tensor whose shape is `in`'s shape without `dims`.
void reduceWithOutput(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Tensor& out,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      poplar::program::Sequence& prog,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {});

} // namespace popops
