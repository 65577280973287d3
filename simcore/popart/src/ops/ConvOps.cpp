// Conv (grouped, strided, dilated, padded; bias) over poplin's convolutions, and MaxPool,
// AveragePool, GlobalMaxPool, GlobalAveragePool over popnn's pooling, with their gradients.
// ONNX weights {Co, Ci/G, K...} are poplin's {G, Co/G, Ci/G, K...}.
#include "ops/OpGroups.hpp"
#include "ops/OpHelpers.hpp"

#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>
#include <popnn/Pooling.hpp>
#include <popops/Reduction.hpp>

namespace popart {

namespace {

using poplar::Tensor;

std::vector<unsigned> toUnsigned(const std::vector<int64_t>& v) {
    return std::vector<unsigned>(v.begin(), v.end());
}

// ONNX pads {b1, b2, ..., e1, e2, ...} (or auto_pad) for a field, kernel, stride and dilation.
void padsOf(const NodeView& c, const std::vector<std::size_t>& field,
            const std::vector<std::size_t>& kernel, const std::vector<unsigned>& stride,
            const std::vector<unsigned>& dilation, std::vector<unsigned>& lower,
            std::vector<unsigned>& upper) {
    const std::size_t n = field.size();
    const std::string autoPad = c.attrs().getString("auto_pad", "NOTSET");
    lower.assign(n, 0);
    upper.assign(n, 0);
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
        for (std::size_t d = 0; d < n; ++d) {
            const int64_t out = (int64_t(field[d]) + stride[d] - 1) / stride[d];
            const int64_t span = int64_t(dilation[d]) * (int64_t(kernel[d]) - 1) + 1;
            const int64_t total =
                std::max<int64_t>(0, (out - 1) * stride[d] + span - int64_t(field[d]));
            const unsigned small = unsigned(total / 2), big = unsigned(total - total / 2);
            lower[d] = autoPad == "SAME_UPPER" ? small : big;
            upper[d] = autoPad == "SAME_UPPER" ? big : small;
        }
        return;
    }
    if (autoPad != "NOTSET" && autoPad != "VALID")
        c.unsupported("auto_pad '" + autoPad + "'");
    const auto pads = c.attrs().getInts("pads", std::vector<int64_t>(2 * n, 0));
    if (autoPad == "NOTSET")
        for (std::size_t d = 0; d < n; ++d) {
            lower[d] = unsigned(pads.at(d));
            upper[d] = unsigned(pads.at(d + n));
        }
}

poplin::ConvParams convParams(const LoweringContext& c, const Tensor& x, const Tensor& w) {
    const std::size_t spatial = x.rank() - 2;
    const std::size_t groups = std::size_t(c.attrs().getInt("group", 1));
    const auto xs = x.shape(), ws = w.shape();
    std::vector<std::size_t> field(xs.begin() + 2, xs.end());
    std::vector<std::size_t> kernel(ws.begin() + 2, ws.end());
    auto stride = toUnsigned(c.attrs().getInts("strides", std::vector<int64_t>(spatial, 1)));
    auto dilation = toUnsigned(c.attrs().getInts("dilations", std::vector<int64_t>(spatial, 1)));
    std::vector<unsigned> lower, upper;
    padsOf(c, field, kernel, stride, dilation, lower, upper);
    poplin::ConvParams p(x.elementType(), x.elementType(), x.dim(0), field, kernel,
                         x.dim(1) / groups, w.dim(0) / groups, groups);
    p.inputTransform.paddingLower = lower;
    p.inputTransform.paddingUpper = upper;
    p.kernelTransform.dilation = dilation;
    p.outputTransform.stride = stride;
    return p;
}

// ONNX weights {Co, Ci/G, K...} as poplin's {G, Co/G, Ci/G, K...}.
Tensor groupedWeights(const Tensor& w, std::size_t groups) {
    std::vector<std::size_t> s = w.shape();
    s[0] /= groups;
    s.insert(s.begin(), groups);
    return w.reshape(s);
}

popnn::pooling::PoolParams poolParams(const LoweringContext& c, const Tensor& x,
                                      popnn::PoolingType type, bool global) {
    const std::size_t spatial = x.rank() - 2;
    const auto xs = x.shape();
    std::vector<std::size_t> field(xs.begin() + 2, xs.end());
    std::vector<std::size_t> kernel = field;
    std::vector<unsigned> stride(spatial, 1), lower(spatial, 0), upper(spatial, 0);
    if (!global) {
        const auto k = c.attrs().getInts("kernel_shape");
        kernel.assign(k.begin(), k.end());
        stride = toUnsigned(c.attrs().getInts("strides", std::vector<int64_t>(spatial, 1)));
        const auto dil = c.attrs().getInts("dilations", std::vector<int64_t>(spatial, 1));
        for (auto d : dil)
            if (d != 1)
                c.unsupported("pooling dilations other than 1");
        if (c.attrs().getInt("ceil_mode", 0) != 0)
            c.unsupported("ceil_mode 1");
        // popnn's average leaves padding out of the count, as ONNX's count_include_pad 0.
        if (type == popnn::PoolingType::AVG && c.attrs().getInt("count_include_pad", 0) != 0) {
            const auto pads = c.attrs().getInts("pads", {});
            for (auto p : pads)
                if (p != 0)
                    c.unsupported("count_include_pad 1 with padding");
        }
        padsOf(c, field, kernel, stride, std::vector<unsigned>(spatial, 1), lower, upper);
    }
    return popnn::pooling::PoolParams(
        type, field, kernel, stride, std::vector<int>(lower.begin(), lower.end()),
        std::vector<int>(upper.begin(), upper.end()), x.dim(1), x.dim(0), x.elementType());
}

void pooling(OpLoweringRegistry& r, const std::string& type, popnn::PoolingType kind, bool global) {
    r.add(onnxOp(
        type,
        [kind, global](LoweringContext& c) {
            Tensor x = c.input(0);
            if (c.hasOutput(1))
                c.unsupported("the Indices output");
            if (c.attrs().getInt("storage_order", 0) != 0)
                c.unsupported("storage_order 1");
            c.setOutput(0, popnn::pooling::pool(c.graph(), poolParams(c, x, kind, global), x,
                                                c.prog(), c.di()));
        },
        [kind, global](GradContext& c) {
            Tensor x = c.input(0);
            c.addInputGrad(0, popnn::pooling::poolInputGradient(
                                  c.graph(), poolParams(c, x, kind, global), x, c.output(0),
                                  c.outputGrad(0), false, c.prog(), c.di("grad")));
        }));
}

} // namespace

void registerConvOps(OpLoweringRegistry& r) {
    r.add(onnxOp(
        "Conv",
        [](LoweringContext& c) {
            Tensor x = c.input(0);
            Tensor w = castTo(c, c.input(1), x.elementType());
            const auto params = convParams(c, x, w);
            Tensor y = poplin::convolution(c.graph(), x, groupedWeights(w, params.numConvGroups),
                                           params, false, c.prog(), c.di());
            if (c.hasInput(2))
                poplin::addBias(c.graph(), y, castTo(c, c.input(2), y.elementType()), c.prog(),
                                c.di("bias"));
            c.setOutput(0, y);
        },
        [](GradContext& c) {
            Tensor x = c.input(0), w = c.input(1), g = c.outputGrad(0);
            const auto params = convParams(c, x, w);
            if (c.needsInputGrad(1)) {
                Tensor dw = poplin::calculateWeightDeltas(c.graph(), g, x, params, c.prog(),
                                                          c.di("gradWeights"));
                c.addInputGrad(1, dw.reshape(w.shape()));
            }
            if (c.needsInputGrad(2)) {
                std::vector<std::size_t> dims = {0};
                for (std::size_t d = 2; d < g.rank(); ++d)
                    dims.push_back(d);
                c.addInputGrad(2, popops::reduce(c.graph(), g, dims, popops::Operation::ADD,
                                                 c.prog(), c.di("gradBias")));
            }
            if (c.needsInputGrad(0)) {
                Tensor dx = poplin::convolution(
                    c.graph(), g, groupedWeights(w, params.numConvGroups),
                    poplin::getGradientParams(params), true, c.prog(), c.di("gradInput"));
                c.addInputGrad(0, dx);
            }
        }));
    pooling(r, "MaxPool", popnn::PoolingType::MAX, false);
    pooling(r, "AveragePool", popnn::PoolingType::AVG, false);
    pooling(r, "GlobalMaxPool", popnn::PoolingType::MAX, true);
    pooling(r, "GlobalAveragePool", popnn::PoolingType::AVG, true);
}

} // namespace popart
