#pragma once
// Index arithmetic of convolutions (PopLibs' poplin/ConvUtil.hpp subset): which input element a
// kernel element meets for an output element, and the parameters of the input-gradient pass.

#include <poplin/ConvParams.hpp>

namespace poplin {

/// The size of `size` elements with `dilation - 1` zeros placed between neighbours.
unsigned getDilatedSize(unsigned size, unsigned dilation);

/// The index of the (untransformed) input element that kernel element `kernelIndex` multiplies
/// to produce output element `outputIndex` in spatial dimension `dim`, or ~0U when it meets
/// padding, a dilation hole, a truncated element, or the output element is output padding.
unsigned getInputIndex(unsigned dim, unsigned outputIndex, unsigned kernelIndex,
                       const ConvParams& params);

/// The parameters of the convolution that takes the gradient of the output of `params` (as
/// input) and the same weights with transposeAndFlipWeights to the gradient of its input: the
/// input channels become the output channels, the strides become input dilations, the output
/// transforms input transforms, and the output has the shape of the forward input.
ConvParams getGradientParams(const ConvParams& params);

} // namespace poplin
