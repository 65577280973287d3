#pragma once
// popnn pooling: max, average and sum pooling over 1-D to 3-D fields, and their input gradients.
//
// Inputs are {B, C, F...}. A window of `kernelShape` moves with `stride`; the field is padded
// (positive) or truncated (negative) by `inputTruncationOrPaddingLower/Upper` first. Padding takes
// no part: a max ignores it and an average divides by the window's elements that are not
// padding. The planes (batch x channel) are shared among the tiles.

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <popnn/PoolingDef.hpp>
#include <string>
#include <utility>
#include <vector>

namespace popnn {
namespace pooling {

/// The parameters of a pooling: its type, the field, window, stride, padding (negative values
/// truncate), channels, batch and element type, as PopLibs describes them.
struct PoolParams {
    PoolingType poolingType;
    std::vector<std::size_t> inputFieldShape;
    std::vector<std::size_t> kernelShape;
    std::vector<unsigned> stride;
    std::vector<int> inputTruncationOrPaddingLower;
    std::vector<int> inputTruncationOrPaddingUpper;
    std::size_t numChannels;
    std::size_t batchSize;
    poplar::Type dType;

    PoolParams(PoolingType poolingType, std::vector<std::size_t> inputFieldShape,
               std::vector<std::size_t> kernelShape, std::vector<unsigned> stride,
               std::vector<int> inputTruncationOrPaddingLower,
               std::vector<int> inputTruncationOrPaddingUpper, std::size_t numChannels,
               std::size_t batchSize, poplar::Type dType)
        : poolingType(poolingType), inputFieldShape(std::move(inputFieldShape)),
          kernelShape(std::move(kernelShape)), stride(std::move(stride)),
          inputTruncationOrPaddingLower(std::move(inputTruncationOrPaddingLower)),
          inputTruncationOrPaddingUpper(std::move(inputTruncationOrPaddingUpper)),
          numChannels(numChannels), batchSize(batchSize), dType(dType) {}

    std::size_t getNumFieldDims() const { return inputFieldShape.size(); }
    std::vector<std::size_t> getOutputFieldShape() const;
};

std::ostream& operator<<(std::ostream& o, const PoolParams& params);
const char* asString(const PoolingType& method);
std::vector<std::size_t> getOutputFieldShape(const PoolParams& params);
/// One operation per window element that is not padding (plus one per output for AVG).
std::uint64_t getFwdFlops(const PoolParams& params);
std::uint64_t getBwdFlops(const PoolParams& params);
double getFwdPerfectCycleCount(const poplar::Graph& graph, const PoolParams& params);
double getBwdPerfectCycleCount(const poplar::Graph& graph, const PoolParams& params);

/// Pools `in` {B, C, F...} into a new tensor {B, C, O...}. Options: none are defined; PopLibs'
/// "poolUseIntrospectiveMapping" (true/false) is accepted without effect.
poplar::Tensor pool(poplar::Graph& graph, const PoolParams& params, const poplar::Tensor& in,
                    poplar::program::Sequence& prog, const poplar::DebugContext& debugContext = {},
                    const poplar::OptionFlags& options = {});

/// The gradient with respect to the input of any pooling, given its input `in`, output `pooled`
/// and output gradient. For MAX the gradient goes to every element equal to its window's
/// maximum, divided by how many there are when `useScaledGradient`.
poplar::Tensor poolInputGradient(poplar::Graph& graph, const PoolParams& params,
                                 const poplar::Tensor& in, const poplar::Tensor& pooled,
                                 const poplar::Tensor& pooledGradient, bool useScaledGradient,
                                 poplar::program::Sequence& prog,
                                 const poplar::DebugContext& debugContext = {},
                                 const poplar::OptionFlags& options = {});

/// The input gradient of AVG or SUM pooling from the output gradient alone. `fwdChansPerGroup`
/// is the channel grouping PopLibs lays the result out with; accepted (it must divide the
/// channels) and the result is {B, C, F...} as always.
poplar::Tensor poolInputGradient(poplar::Graph& graph, const PoolParams& params,
                                 const unsigned fwdChansPerGroup,
                                 const poplar::Tensor& pooledGradient,
                                 poplar::program::Sequence& prog,
                                 const poplar::DebugContext& debugContext = {},
                                 const poplar::OptionFlags& options = {});

} // namespace pooling
} // namespace popnn
