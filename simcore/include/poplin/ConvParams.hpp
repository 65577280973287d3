#pragma once
// poplin::ConvParams: the shape of a convolution as PopLibs describes it.

#include <cstddef>
#include <iosfwd>
#include <poplar/Type.hpp>
#include <vector>

namespace poplin {

/// A convolution of `batchSize` inputs of `numConvGroups * inputChannels` channels over a 1-D to
/// 3-D field (`inputFieldShape`) with a kernel of `kernelShape`, producing
/// `numConvGroups * outputChannels` channels. Group g convolves input channels
/// [g * inputChannels, (g + 1) * inputChannels) into output channels [g * outputChannels, ...).
/// Each spatial dimension of the input and of the kernel is transformed before the convolution
/// (truncation, then dilation, then padding, then flipping) and each dimension of the output
/// after it (truncation, then striding, then padding), as PopLibs defines them. The output field
/// size of a dimension is that of the transformed input minus the transformed kernel plus one,
/// then transformed.
struct ConvParams {
    /// Truncation, dilation, padding and flip of the spatial dimensions of an input or kernel.
    struct InputTransform {
        std::vector<unsigned> truncationLower;
        std::vector<unsigned> truncationUpper;
        std::vector<unsigned> dilation;
        std::vector<unsigned> paddingLower;
        std::vector<unsigned> paddingUpper;
        std::vector<bool> flip;

        InputTransform() = default;
        /// The identity transform of `size` dimensions.
        explicit InputTransform(std::size_t size);
        InputTransform(std::vector<unsigned> truncationLower, std::vector<unsigned> truncationUpper,
                       std::vector<unsigned> dilation, std::vector<unsigned> paddingLower,
                       std::vector<unsigned> paddingUpper, std::vector<bool> flip);
    };
    /// Truncation, striding and padding of the spatial dimensions of the output.
    struct OutputTransform {
        std::vector<unsigned> truncationLower;
        std::vector<unsigned> truncationUpper;
        std::vector<unsigned> stride;
        std::vector<unsigned> paddingLower;
        std::vector<unsigned> paddingUpper;

        OutputTransform() = default;
        /// The identity transform of `size` dimensions.
        explicit OutputTransform(std::size_t size);
        OutputTransform(std::vector<unsigned> truncationLower,
                        std::vector<unsigned> truncationUpper, std::vector<unsigned> stride,
                        std::vector<unsigned> paddingLower, std::vector<unsigned> paddingUpper);
    };

    poplar::Type inputType;
    poplar::Type outputType;
    std::size_t batchSize = 0;
    std::vector<std::size_t> inputFieldShape;
    std::vector<std::size_t> kernelShape;
    std::size_t inputChannels = 0;  ///< per conv group
    std::size_t outputChannels = 0; ///< per conv group
    std::size_t numConvGroups = 1;
    InputTransform inputTransform;
    InputTransform kernelTransform;
    OutputTransform outputTransform;

    ConvParams() = default;
    ConvParams(poplar::Type dataType, std::size_t batchSize,
               std::vector<std::size_t> inputFieldShape, std::vector<std::size_t> kernelShape,
               std::size_t inputChannels, std::size_t outputChannels, std::size_t numConvGroups);
    ConvParams(poplar::Type inputType, poplar::Type outputType, std::size_t batchSize,
               std::vector<std::size_t> inputFieldShape, std::vector<std::size_t> kernelShape,
               std::size_t inputChannels, std::size_t outputChannels, std::size_t numConvGroups);
    ConvParams(poplar::Type inputType, poplar::Type outputType, std::size_t batchSize,
               std::vector<std::size_t> inputFieldShape, std::vector<std::size_t> kernelShape,
               std::size_t inputChannels, std::size_t outputChannels, std::size_t numConvGroups,
               InputTransform inputTransform, InputTransform kernelTransform,
               OutputTransform outputTransform);

    std::size_t getUntransformedOutputSize(unsigned dim) const;
    std::size_t getOutputSize(unsigned dim) const;
    std::vector<std::size_t> getOutputFieldShape() const;
    std::size_t getNumOutputChansPerConvGroup() const { return outputChannels; }
    std::size_t getNumOutputChans() const { return outputChannels * numConvGroups; }
    std::size_t getInputSize(unsigned dim) const { return inputFieldShape[dim]; }
    std::size_t getNumInputChansPerConvGroup() const { return inputChannels; }
    std::size_t getNumInputChans() const { return inputChannels * numConvGroups; }
    std::size_t getNumConvGroups() const { return numConvGroups; }
    std::size_t getNumFieldDims() const { return inputFieldShape.size(); }
    std::size_t getBatchSize() const { return batchSize; }
    unsigned getTruncatedInputSize(unsigned dim) const;
    unsigned getTruncatedKernelSize(unsigned dim) const;
    unsigned getTransformedInputSize(unsigned dim) const;
    unsigned getTransformedKernelSize(unsigned dim) const;

    /// Throws poputil::poplibs_error naming what is inconsistent: transform vector lengths,
    /// zero sizes, dilations or strides, truncation beyond a size, or an empty output.
    void validate() const;
};

bool operator<(const ConvParams::InputTransform& a, const ConvParams::InputTransform& b);
bool operator==(const ConvParams::InputTransform& a, const ConvParams::InputTransform& b);
bool operator!=(const ConvParams::InputTransform& a, const ConvParams::InputTransform& b);
bool operator<(const ConvParams::OutputTransform& a, const ConvParams::OutputTransform& b);
bool operator==(const ConvParams::OutputTransform& a, const ConvParams::OutputTransform& b);
bool operator!=(const ConvParams::OutputTransform& a, const ConvParams::OutputTransform& b);
bool operator<(const ConvParams& a, const ConvParams& b);
bool operator==(const ConvParams& a, const ConvParams& b);
bool operator!=(const ConvParams& a, const ConvParams& b);
std::ostream& operator<<(std::ostream& os, const ConvParams& p);

} // namespace poplin
