// Convolutions and pooling: Conv and ConvTranspose through poplin::convolution (input gradient
// by the transposed, flipped weights, weight gradient by calculateWeightDeltas),
// MaxPool/AveragePool and the global pools through popnn::pooling. Padding follows the output shape
// ONNX's inference gives, so auto_pad and ceil_mode need no separate arithmetic: the upper padding
// is what makes the window count come out at that size.
#include "ops/OpGroups.hpp"
#include "ops/ViewOps.hpp"

#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>
#include <popnn/Pooling.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduction.hpp>

namespace popart {
namespace views {

namespace {

using UInts = std::vector<unsigned>;

struct Window {
    std::vector<std::size_t> field, kernel;
    UInts stride, dilation, padLower, padUpper;
};

/// The spatial window of a Conv or pool node: kernel, strides, dilations and the padding that
/// gives ONNX's output size.
template <typename Ctx> Window windowOf(Ctx& ctx, const Shape& kernelShape) {
    const Shape& in = ctx.inputInfo(0).shape();
    const Shape& out = ctx.outputInfo(0).shape();
    std::size_t n = in.size() - 2;
    Window w;
    Ints strides = ctx.attrs().getInts("strides", Ints(n, 1));
    Ints dilations = ctx.attrs().getInts("dilations", Ints(n, 1));
    Ints pads = ctx.attrs().getInts("pads", Ints(2 * n, 0));
    std::string autoPad = ctx.attrs().getString("auto_pad", "NOTSET");
    if (strides.size() != n || dilations.size() != n || pads.size() != 2 * n)
        ctx.invalid("strides, dilations or pads do not match the spatial rank");
    for (std::size_t d = 0; d < n; ++d) {
        int64_t k = kernelShape[d], dil = dilations[d], s = strides[d];
        int64_t span = (k - 1) * dil + 1;
        int64_t size = in[d + 2], o = out[d + 2];
        int64_t needed = std::max<int64_t>((o - 1) * s + span - size, 0);
        int64_t lower = pads[d];
        if (autoPad == "SAME_UPPER")
            lower = needed / 2;
        else if (autoPad == "SAME_LOWER")
            lower = needed - needed / 2;
        else if (autoPad == "VALID")
            lower = 0;
        int64_t upper = std::max<int64_t>(needed - lower, 0);
        w.field.push_back(static_cast<std::size_t>(size));
        w.kernel.push_back(static_cast<std::size_t>(k));
        w.stride.push_back(static_cast<unsigned>(s));
        w.dilation.push_back(static_cast<unsigned>(dil));
        w.padLower.push_back(static_cast<unsigned>(lower));
        w.padUpper.push_back(static_cast<unsigned>(upper));
    }
    return w;
}

// --- Conv -----------------------------------------------------------------------------------

template <typename Ctx> poplin::ConvParams convParams(Ctx& ctx, const poplar::Type& type) {
    const Shape& x = ctx.inputInfo(0).shape();
    const Shape& wShape = ctx.inputInfo(1).shape();
    std::size_t group = static_cast<std::size_t>(ctx.attrs().getInt("group", 1));
    Shape kernel(wShape.begin() + 2, wShape.end());
    Window w = windowOf(ctx, kernel);
    std::size_t n = w.field.size();
    poplin::ConvParams p(type, static_cast<std::size_t>(x[0]), w.field, w.kernel,
                         static_cast<std::size_t>(x[1]) / group,
                         static_cast<std::size_t>(wShape[0]) / group, group);
    p.inputTransform.paddingLower = w.padLower;
    p.inputTransform.paddingUpper = w.padUpper;
    p.kernelTransform.dilation = w.dilation;
    p.outputTransform.stride = w.stride;
    (void)n;
    return p;
}

/// ONNX weights {M, C/g, K...} as poplin's {g, M/g, C/g, K...}.
poplar::Tensor groupedWeights(const poplar::Tensor& w, const poplin::ConvParams& p) {
    std::vector<std::size_t> shape{p.numConvGroups, p.outputChannels, p.inputChannels};
    shape.insert(shape.end(), p.kernelShape.begin(), p.kernelShape.end());
    return w.reshape(shape);
}

void convForward(LoweringContext& ctx) {
    poplar::Tensor x = ctx.input(0);
    poplin::ConvParams p = convParams(ctx, x.elementType());
    poplar::Tensor y = poplin::convolution(ctx.graph(), x, groupedWeights(ctx.input(1), p), p,
                                           false, ctx.prog(), ctx.di("conv"));
    if (ctx.hasInput(2))
        poplin::addBias(ctx.graph(), y, ctx.input(2), ctx.prog(), ctx.di("bias"));
    ctx.setOutput(0, y);
}

void convGrad(GradContext& ctx) {
    poplar::Tensor x = ctx.input(0), g = ctx.outputGrad(0);
    poplin::ConvParams p = convParams(ctx, x.elementType());
    if (ctx.needsInputGrad(0)) {
        // The input gradient convolves the output gradient with the flipped, transposed weights.
        poplar::Tensor dx = poplin::convolution(ctx.graph(), g, groupedWeights(ctx.input(1), p),
                                                poplin::getGradientParams(p), true, ctx.prog(),
                                                ctx.di("gradInput"));
        ctx.addInputGrad(0, dx);
    }
    if (ctx.needsInputGrad(1)) {
        poplar::Tensor dw =
            poplin::calculateWeightDeltas(ctx.graph(), g, x, p, ctx.prog(), ctx.di("gradWeights"));
        ctx.addInputGrad(1, dw.reshape(dims(ctx.inputInfo(1).shape())));
    }
    if (ctx.hasInput(2) && ctx.needsInputGrad(2)) {
        std::vector<std::size_t> over{0};
        for (std::size_t d = 2; d < g.rank(); ++d)
            over.push_back(d);
        ctx.addInputGrad(2, popops::reduce(ctx.graph(), g, over, popops::Operation::ADD, ctx.prog(),
                                           ctx.di("gradBias")));
    }
}

// --- ConvTranspose ----------------------------------------------------------------------------

/// ConvTranspose as the convolution it is the adjoint of: the input dilated by the strides and
/// padded by span - 1 - padding (negative amounts truncate the output instead), the kernel
/// flipped, input and output channels of the weights swapped. Padding follows the output shape
/// ONNX's inference gives (pads, output_padding, output_shape and auto_pad alike).
poplin::ConvParams convTransposeParams(const NodeView& ctx, const Shape& x, const Shape& wShape,
                                       const Shape& out, const poplar::Type& type) {
    const std::size_t n = x.size() - 2;
    const std::size_t group = static_cast<std::size_t>(ctx.attrs().getInt("group", 1));
    Ints strides = ctx.attrs().getInts("strides", Ints(n, 1));
    Ints dilations = ctx.attrs().getInts("dilations", Ints(n, 1));
    Ints pads = ctx.attrs().getInts("pads", Ints(2 * n, 0));
    Ints outputPadding = ctx.attrs().getInts("output_padding", Ints(n, 0));
    const std::string autoPad = ctx.attrs().getString("auto_pad", "NOTSET");
    const bool fromShape = ctx.attrs().has("output_shape");
    if (strides.size() != n || dilations.size() != n || pads.size() != 2 * n ||
        outputPadding.size() != n)
        ctx.invalid("strides, dilations, pads or output_padding do not match the spatial rank");
    if (x[1] % int64_t(group) != 0 || wShape[0] != x[1])
        ctx.invalid("the weights' first dimension must be the input channels");
    Shape kernel(wShape.begin() + 2, wShape.end());
    std::vector<std::size_t> field, kernelSizes;
    for (std::size_t d = 0; d < n; ++d) {
        field.push_back(static_cast<std::size_t>(x[d + 2]));
        kernelSizes.push_back(static_cast<std::size_t>(kernel[d]));
    }
    poplin::ConvParams p(type, static_cast<std::size_t>(x[0]), field, kernelSizes,
                         static_cast<std::size_t>(x[1]) / group,
                         static_cast<std::size_t>(wShape[1]), group);
    for (std::size_t d = 0; d < n; ++d) {
        const int64_t span = (kernel[d] - 1) * dilations[d] + 1;
        const int64_t dilatedIn = (x[d + 2] - 1) * strides[d] + 1;
        const int64_t total = strides[d] * (x[d + 2] - 1) + outputPadding[d] + span - out[d + 2];
        // ONNX's halves round down (negative totals too: the extra row goes at the end).
        const int64_t half = total >= 0 ? total / 2 : -((1 - total) / 2);
        int64_t begin = pads[d];
        if (autoPad == "VALID")
            begin = 0;
        else if (autoPad == "SAME_UPPER")
            begin = half;
        else if (autoPad == "SAME_LOWER" || fromShape)
            begin = total - half;
        int64_t lower = span - 1 - begin, truncLower = 0;
        if (lower < 0) {
            truncLower = -lower;
            lower = 0;
        }
        int64_t upper = out[d + 2] + truncLower - 1 + span - lower - dilatedIn, truncUpper = 0;
        if (upper < 0) {
            truncUpper = -upper;
            upper = 0;
        }
        p.inputTransform.dilation[d] = static_cast<unsigned>(strides[d]);
        p.inputTransform.paddingLower[d] = static_cast<unsigned>(lower);
        p.inputTransform.paddingUpper[d] = static_cast<unsigned>(upper);
        p.kernelTransform.dilation[d] = static_cast<unsigned>(dilations[d]);
        p.kernelTransform.flip[d] = true;
        p.outputTransform.truncationLower[d] = static_cast<unsigned>(truncLower);
        p.outputTransform.truncationUpper[d] = static_cast<unsigned>(truncUpper);
    }
    return p;
}

template <typename Ctx> poplin::ConvParams convTransposeParams(Ctx& ctx, const poplar::Type& type) {
    return convTransposeParams(ctx, ctx.inputInfo(0).shape(), ctx.inputInfo(1).shape(),
                               ctx.outputInfo(0).shape(), type);
}

/// ONNX ConvTranspose weights {C, M/g, K...} as poplin's {g, M/g, C/g, K...}, and back.
poplar::Tensor transposedWeights(const poplar::Tensor& w, const poplin::ConvParams& p) {
    std::vector<std::size_t> shape{p.numConvGroups, p.inputChannels, p.outputChannels};
    shape.insert(shape.end(), p.kernelShape.begin(), p.kernelShape.end());
    return w.reshape(shape).dimRoll(2, 1);
}

void convTransposeForward(LoweringContext& ctx) {
    poplar::Tensor x = ctx.input(0);
    poplin::ConvParams p = convTransposeParams(ctx, x.elementType());
    poplar::Tensor y = poplin::convolution(ctx.graph(), x, transposedWeights(ctx.input(1), p), p,
                                           false, ctx.prog(), ctx.di("convTranspose"));
    if (ctx.hasInput(2))
        poplin::addBias(ctx.graph(), y, ctx.input(2), ctx.prog(), ctx.di("bias"));
    ctx.setOutput(0, y);
}

void convTransposeGrad(GradContext& ctx) {
    poplar::Tensor x = ctx.input(0), g = ctx.outputGrad(0);
    poplin::ConvParams p = convTransposeParams(ctx, x.elementType());
    if (ctx.needsInputGrad(0))
        ctx.addInputGrad(0, poplin::convolution(ctx.graph(), g, transposedWeights(ctx.input(1), p),
                                                poplin::getGradientParams(p), true, ctx.prog(),
                                                ctx.di("gradInput")));
    if (ctx.needsInputGrad(1)) {
        poplar::Tensor dw =
            poplin::calculateWeightDeltas(ctx.graph(), g, x, p, ctx.prog(), ctx.di("gradWeights"));
        std::vector<std::size_t> shape{p.numConvGroups, p.outputChannels, p.inputChannels};
        shape.insert(shape.end(), p.kernelShape.begin(), p.kernelShape.end());
        ctx.addInputGrad(1,
                         dw.reshape(shape).dimRoll(2, 1).reshape(dims(ctx.inputInfo(1).shape())));
    }
    if (ctx.hasInput(2) && ctx.needsInputGrad(2)) {
        std::vector<std::size_t> over{0};
        for (std::size_t d = 2; d < g.rank(); ++d)
            over.push_back(d);
        ctx.addInputGrad(2, popops::reduce(ctx.graph(), g, over, popops::Operation::ADD, ctx.prog(),
                                           ctx.di("gradBias")));
    }
}

// --- Pooling --------------------------------------------------------------------------------

popnn::pooling::PoolParams poolParams(LoweringContext& ctx, popnn::PoolingType type) {
    const Shape& x = ctx.inputInfo(0).shape();
    bool global = ctx.opType() == "GlobalAveragePool" || ctx.opType() == "GlobalMaxPool";
    Shape kernel = global ? Shape(x.begin() + 2, x.end()) : ctx.attrs().getInts("kernel_shape");
    if (kernel.size() + 2 != x.size())
        ctx.invalid("kernel_shape does not match the spatial rank");
    if (!global)
        for (int64_t dil : ctx.attrs().getInts("dilations", {}))
            if (dil != 1)
                ctx.unsupported("dilations other than 1");
    Window w = windowOf(ctx, kernel);
    std::vector<int> lower(w.padLower.begin(), w.padLower.end());
    std::vector<int> upper(w.padUpper.begin(), w.padUpper.end());
    return popnn::pooling::PoolParams(type, w.field, w.kernel, w.stride, lower, upper,
                                      static_cast<std::size_t>(x[1]),
                                      static_cast<std::size_t>(x[0]), ctx.input(0).elementType());
}

/// AveragePool divides by the window's elements that are not padding unless count_include_pad;
/// then it is the SUM divided by the whole window.
popnn::PoolingType poolType(const LoweringContext& ctx) {
    const std::string& op = ctx.opType();
    if (op == "MaxPool" || op == "GlobalMaxPool") {
        if (ctx.hasOutput(1))
            ctx.unsupported("the Indices output");
        return popnn::PoolingType::MAX;
    }
    return op == "AveragePool" && ctx.attrs().getInt("count_include_pad", 0) != 0
               ? popnn::PoolingType::SUM
               : popnn::PoolingType::AVG;
}

float windowElements(const popnn::pooling::PoolParams& p) {
    float n = 1.0f;
    for (std::size_t k : p.kernelShape)
        n *= static_cast<float>(k);
    return n;
}

void poolForward(LoweringContext& ctx) {
    popnn::PoolingType type = poolType(ctx);
    popnn::pooling::PoolParams p = poolParams(ctx, type);
    poplar::Tensor y = popnn::pooling::pool(ctx.graph(), p, ctx.input(0), ctx.prog(), ctx.di());
    if (type == popnn::PoolingType::SUM)
        y = popops::map(ctx.graph(), popops::expr::_1 / popops::expr::Const(windowElements(p)), {y},
                        ctx.prog(), ctx.di("countIncludePad"));
    ctx.save("pooled", y);
    ctx.setOutput(0, y.reshape(dims(ctx.outputInfo(0).shape())));
}

void poolGrad(GradContext& ctx) {
    if (!ctx.needsInputGrad(0))
        return;
    popnn::PoolingType type = poolType(ctx);
    popnn::pooling::PoolParams p = poolParams(ctx, type);
    poplar::Tensor pooled = ctx.saved("pooled");
    poplar::Tensor g = ctx.outputGrad(0).reshape(pooled.shape());
    poplar::Tensor dx;
    if (type == popnn::PoolingType::MAX) {
        dx = popnn::pooling::poolInputGradient(ctx.graph(), p, ctx.input(0), pooled, g, false,
                                               ctx.prog(), ctx.di("grad"));
    } else {
        if (type == popnn::PoolingType::SUM)
            g = popops::map(ctx.graph(), popops::expr::_1 / popops::expr::Const(windowElements(p)),
                            {g}, ctx.prog(), ctx.di("countIncludePad"));
        dx = popnn::pooling::poolInputGradient(ctx.graph(), p, 1, g, ctx.prog(), ctx.di("grad"));
    }
    ctx.addInputGrad(0, dx);
}

OpLowering entry(const char* opType, ForwardFn forward, GradFn grad) {
    OpLowering op;
    op.opType = opType;
    op.forward = std::move(forward);
    op.grad = std::move(grad);
    return op;
}

} // namespace

void registerConvOps(OpLoweringRegistry& registry) {
    registry.add(entry("Conv", convForward, convGrad));
    registry.add(entry("ConvTranspose", convTransposeForward, convTransposeGrad));
    for (const char* op : {"MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool"})
        registry.add(entry(op, poolForward, poolGrad));
}

} // namespace views
} // namespace popart
