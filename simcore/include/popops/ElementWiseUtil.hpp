#pragma once
// Support for element-wise operations: creating their output tensors.

#include <poplar/Graph.hpp>
#include <vector>

namespace popops {

/// A new variable of `outputType` for the output of an element-wise operation over `inputs`
/// (all of one shape), mapped like the input best suited to it, so the operation needs no
/// exchange: among the inputs that are completely mapped and have no aliased or constant
/// elements, the one with the fewest elements on its busiest tile, then on the most tiles, then
/// in the fewest regions (PopLibs' order). A single-element output follows the first input;
/// with no suitable input the output is mapped linearly.
poplar::Tensor createOutputForElementWiseOp(poplar::Graph& graph,
                                            const std::vector<poplar::Tensor>& inputs,
                                            const poplar::Type& outputType,
                                            const poplar::DebugContext& debugContext = {});

} // namespace popops
