#pragma once
// popops::reduce and reduceWithOutput: reductions over chosen dimensions. popops/Reduce.hpp (the
// SDK's name) includes this header.

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <vector>

namespace popops {

/// The reduction operation. SQUARE_ADD sums the squares of the inputs; LOG_ADD adds values held
/// as logarithms (log(sum(exp(x)))); LOGICAL_AND and LOGICAL_OR reduce BOOL tensors.
enum class Operation { ADD, MUL, MIN, MAX, LOGICAL_AND, LOGICAL_OR, SQUARE_ADD, LOG_ADD };

/// What to reduce with: the operation, whether the result is added to (update) rather than
/// written over the output of reduceWithOutput, and optionally a scalar FLOAT or HALF tensor
/// `scale` multiplying the result (ADD and SQUARE_ADD only): out = [out +] scale * reduce(in).
struct ReduceParams {
    ReduceParams() = default;
    ReduceParams(Operation op, bool update = false) : op(op), update(update) {}
    ReduceParams(Operation op, bool update, poplar::Tensor scale)
        : op(op), update(update), useScale(true), scale(scale) {}
    // As in the SDK: a constant scale was an older API; refuse it rather than convert it to bool.
    ReduceParams(Operation op, float constantScale, bool update = false) = delete;
    Operation op = Operation::ADD;
    bool update = false;
    bool useScale = false;
    poplar::Tensor scale;
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

/// The forms above adding their compute set to `css` instead of a program, so several
/// reductions can run in the same compute sets; the caller executes each of `css` in order.
poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Type& outType,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      std::vector<poplar::ComputeSet>& css,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {});
poplar::Tensor reduce(poplar::Graph& graph, const poplar::Tensor& in,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      std::vector<poplar::ComputeSet>& css,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {});
void reduceWithOutput(poplar::Graph& graph, const poplar::Tensor& in, const poplar::Tensor& out,
                      const std::vector<std::size_t>& dims, ReduceParams params,
                      std::vector<poplar::ComputeSet>& css,
                      const poplar::DebugContext& debugContext = {},
                      const poplar::OptionFlags& options = {});

} // namespace popops
