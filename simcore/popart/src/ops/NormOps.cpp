// LayerNormalization (opset 17), BatchNormalization (running statistics for inference; batch
// statistics with training_mode or in a TrainingSession), InstanceNormalization, Graphcore's
// GroupNormalization, and Dropout.
#include "ops/LoweringState.hpp"
#include "ops/OpGroups.hpp"
#include "ops/OpHelpers.hpp"

#include <popops/Reduction.hpp>
#include <poprand/RandomGen.hpp>
#include <poputil/Broadcast.hpp>

namespace popart {

namespace {

using poplar::Tensor;

// Mean and 1/sqrt(var + eps) of x over `dims`, as views broadcast back to x's shape.
struct Moments {
    Tensor mean, invStd;       // broadcast to x's shape
    Tensor meanRaw, invStdRaw; // of the reduced shape
};

Tensor expandBack(const Tensor& t, const Tensor& x, const std::vector<std::size_t>& dims) {
    std::vector<std::size_t> keep = x.shape();
    for (auto d : dims)
        keep[d] = 1;
    Tensor k = t.reshape(keep);
    poputil::broadcastToMatch(k, x.shape());
    return k;
}

Moments moments(LoweringContext& c, const Tensor& x, const std::vector<std::size_t>& dims,
                float eps) {
    std::size_t n = 1;
    for (auto d : dims)
        n *= x.dim(unsigned(d));
    Tensor sum = popops::reduce(c.graph(), x, dims, popops::Operation::ADD, c.prog(), c.di("mean"));
    Tensor mean = mapExpr(c, pe::_1 / pe::Const(float(n)), {sum}, "mean");
    Tensor mb = expandBack(mean, x, dims);
    Tensor centred = mapExpr(c, pe::_1 - pe::_2, {x, mb}, "centre");
    Tensor ss = popops::reduce(c.graph(), centred, dims, popops::Operation::SQUARE_ADD, c.prog(),
                               c.di("var"));
    Tensor inv =
        mapExpr(c, pe::Rsqrt(pe::_1 / pe::Const(float(n)) + pe::Const(eps)), {ss}, "invStd");
    return {mb, expandBack(inv, x, dims), mean, inv};
}

// The gradient of xhat = (x - mean) * invStd with batch statistics over `dims`, given dxhat:
// dx = invStd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)).
Tensor normGrad(GradContext& c, const Tensor& dxhat, const Tensor& xhat, const Tensor& invStd,
                const std::vector<std::size_t>& dims) {
    std::size_t n = 1;
    for (auto d : dims)
        n *= xhat.dim(unsigned(d));
    Tensor s1 =
        popops::reduce(c.graph(), dxhat, dims, popops::Operation::ADD, c.prog(), c.di("gradSum"));
    Tensor p = mapExpr(c, pe::_1 * pe::_2, {dxhat, xhat}, "gradProd");
    Tensor s2 =
        popops::reduce(c.graph(), p, dims, popops::Operation::ADD, c.prog(), c.di("gradSum2"));
    return mapExpr(
        c, pe::_3 * (pe::_1 - pe::_4 / pe::Const(float(n)) - pe::_2 * pe::_5 / pe::Const(float(n))),
        {dxhat, xhat, invStd, expandBack(s1, xhat, dims), expandBack(s2, xhat, dims)}, "grad");
}

// The gradients of a per-channel scale (input 1) and bias (input 2) applied as
// y = xhat * scale + bias, summed over `dims` (every dimension but the channels').
void addScaleBiasGrads(GradContext& c, const Tensor& g, const Tensor& xhat,
                       const std::vector<std::size_t>& dims) {
    if (c.needsInputGrad(1))
        c.addInputGrad(1, popops::reduce(c.graph(),
                                         mapExpr(c, pe::_1 * pe::_2, {g, xhat}, "gradScale"), dims,
                                         popops::Operation::ADD, c.prog(), c.di("gradScale")));
    if (c.needsInputGrad(2))
        c.addInputGrad(2, popops::reduce(c.graph(), g, dims, popops::Operation::ADD, c.prog(),
                                         c.di("gradBias")));
}

// A per-channel parameter {C} as a view broadcast over x {N, C, ...}.
Tensor channelView(const Tensor& p, const Tensor& x) {
    std::vector<std::size_t> shape(x.rank(), 1);
    shape[1] = p.numElements();
    Tensor v = p.reshape(shape);
    poputil::broadcastToMatch(v, x.shape());
    return v;
}

std::vector<std::size_t> allBut(std::size_t rank, std::size_t keep) {
    std::vector<std::size_t> d;
    for (std::size_t i = 0; i < rank; ++i)
        if (i != keep)
            d.push_back(i);
    return d;
}

// GroupNormalization's num_groups, checked against the input {N, C, ...}.
std::size_t groupCount(const NodeView& c, const std::vector<std::size_t>& shape) {
    if (shape.size() < 2)
        c.invalid("the input needs at least 2 dimensions (N, C, ...)");
    if (shape[0] == 0)
        c.invalid("the input has no samples (N is 0)");
    const int64_t groups = c.attrs().getInt("num_groups", 0);
    if (groups < 1 || shape[1] % std::size_t(groups) != 0)
        c.invalid("num_groups " + std::to_string(groups) + " must be at least 1 and divide the " +
                  std::to_string(shape[1]) + " channels");
    return std::size_t(groups);
}

bool batchStatistics(const LoweringContext& c) {
    if (c.opset() >= 14 && c.attrs().has("training_mode"))
        return c.attrs().getInt("training_mode", 0) != 0;
    return c.isTraining() || c.numOutputs() > 1;
}

} // namespace

void registerNormOps(OpLoweringRegistry& r) {
    r.add(onnxOp(
        "LayerNormalization",
        [](LoweringContext& c) {
            Tensor x = c.input(0);
            const std::size_t axis =
                std::size_t(normaliseAxis(c, c.attrs().getInt("axis", -1), int64_t(x.rank())));
            std::vector<std::size_t> dims;
            for (std::size_t d = axis; d < x.rank(); ++d)
                dims.push_back(d);
            Moments m = moments(c, x, dims, c.attrs().getFloat("epsilon", 1e-5f));
            Tensor xhat =
                mapExpr(c, (pe::_1 - pe::_2) * pe::_3, {x, m.mean, m.invStd}, "normalise");
            c.save("xhat", xhat);
            c.save("invStd", m.invStd);
            Tensor y = mapExpr(c, pe::_1 * pe::_2, {xhat, castTo(c, c.input(1), x.elementType())},
                               "scale");
            if (c.hasInput(2))
                y = popops::add(c.graph(), y, castTo(c, c.input(2), x.elementType()), c.prog(),
                                c.di("bias"));
            c.setOutput(0, y);
            if (c.hasOutput(1))
                c.setOutput(1, m.meanRaw);
            if (c.hasOutput(2))
                c.setOutput(2, m.invStdRaw);
        },
        [](GradContext& c) {
            Tensor x = c.input(0), g = c.outputGrad(0);
            const std::size_t axis =
                std::size_t(normaliseAxis(c, c.attrs().getInt("axis", -1), int64_t(x.rank())));
            std::vector<std::size_t> dims;
            for (std::size_t d = axis; d < x.rank(); ++d)
                dims.push_back(d);
            Tensor xhat = c.saved("xhat");
            if (c.needsInputGrad(1))
                c.addInputGrad(1, mapExpr(c, pe::_1 * pe::_2, {g, xhat}, "gradScale"));
            if (c.needsInputGrad(2))
                c.addInputGrad(2, g);
            if (c.needsInputGrad(0)) {
                Tensor dxhat = mapExpr(c, pe::_1 * pe::_2, {g, c.input(1)}, "gradXhat");
                c.addInputGrad(0, normGrad(c, dxhat, xhat, c.saved("invStd"), dims));
            }
        },
        17));
    OpLowering batchNorm = onnxOp(
        "BatchNormalization",
        [](LoweringContext& c) {
            Tensor x = c.input(0);
            if (x.rank() < 2)
                c.invalid("the input needs at least 2 dimensions (N, C, ...)");
            const float eps = c.attrs().getFloat("epsilon", 1e-5f);
            Tensor scale = channelView(c.input(1), x), bias = channelView(c.input(2), x);
            Tensor xhat;
            if (batchStatistics(c)) {
                const auto dims = allBut(x.rank(), 1);
                Moments m = moments(c, x, dims, eps);
                xhat = mapExpr(c, (pe::_1 - pe::_2) * pe::_3, {x, m.mean, m.invStd}, "normalise");
                c.save("invStd", m.invStd);
                // Outputs 1 and 2: running mean and variance, momentum * old + (1 - momentum) *
                // batch statistic.
                const float mom = c.attrs().getFloat("momentum", 0.9f);
                if (c.hasOutput(1))
                    c.setOutput(1,
                                mapExpr(c, pe::_1 * pe::Const(mom) + pe::_2 * pe::Const(1.0f - mom),
                                        {c.input(3), m.meanRaw}, "runningMean"));
                if (c.hasOutput(2))
                    c.setOutput(2, mapExpr(c,
                                           pe::_1 * pe::Const(mom) +
                                               (pe::Inv(pe::_2 * pe::_2) - pe::Const(eps)) *
                                                   pe::Const(1.0f - mom),
                                           {c.input(4), m.invStdRaw}, "runningVar"));
                // Outputs 3 and 4 before opset 14 (torch exports them in training mode): the
                // batch's mean and variance.
                if (c.hasOutput(3))
                    c.setOutput(3, m.meanRaw);
                if (c.hasOutput(4))
                    c.setOutput(4, mapExpr(c, pe::Inv(pe::_1 * pe::_1) - pe::Const(eps),
                                           {m.invStdRaw}, "savedVar"));
            } else {
                Tensor mean = channelView(c.input(3), x), var = channelView(c.input(4), x);
                xhat = mapExpr(c, (pe::_1 - pe::_2) * pe::Rsqrt(pe::_3 + pe::Const(eps)),
                               {x, mean, var}, "normalise");
            }
            c.save("xhat", xhat);
            c.setOutput(0, mapExpr(c, pe::_1 * pe::_2 + pe::_3, {xhat, scale, bias}, "scale"));
            for (std::size_t i = 1; i < c.numOutputs() && !batchStatistics(c); ++i)
                if (c.hasOutput(i))
                    c.unsupported("output " + std::to_string(i) +
                                  " (statistics) in inference without training_mode");
        },
        [](GradContext& c) {
            Tensor x = c.input(0), g = c.outputGrad(0), xhat = c.saved("xhat");
            const auto dims = allBut(x.rank(), 1);
            addScaleBiasGrads(c, g, xhat, dims);
            if (c.needsInputGrad(0)) {
                Tensor dxhat =
                    mapExpr(c, pe::_1 * pe::_2, {g, channelView(c.input(1), x)}, "gradXhat");
                if (batchStatistics(c)) {
                    c.addInputGrad(0, normGrad(c, dxhat, xhat, c.saved("invStd"), dims));
                } else {
                    const float eps = c.attrs().getFloat("epsilon", 1e-5f);
                    c.addInputGrad(0, mapExpr(c, pe::_1 * pe::Rsqrt(pe::_2 + pe::Const(eps)),
                                              {dxhat, channelView(c.input(4), x)}, "grad"));
                }
            }
        });
    // ai.graphcore GroupNormalization (PopART's groupnormalization: X {N, C, ...}, per-channel
    // scale and bias, attributes num_groups and epsilon; outputs Y and each group's mean and
    // 1/sqrt(var + eps), {N * num_groups}). PopTorch lowers torch's layer_norm to it with one
    // group over the flattened normalised dimensions.
    OpLowering groupNorm = onnxOp(
        "GroupNormalization",
        [](LoweringContext& c) {
            Tensor x = c.input(0);
            const std::size_t groups = groupCount(c, x.shape());
            const std::vector<std::size_t> grouped = {x.dim(0), groups,
                                                      x.numElements() / (x.dim(0) * groups)};
            Moments m = moments(c, x.reshape(grouped), {2}, c.attrs().getFloat("epsilon", 1e-5f));
            Tensor xhat = mapExpr(c, (pe::_1 - pe::_2) * pe::_3,
                                  {x.reshape(grouped), m.mean, m.invStd}, "normalise")
                              .reshape(x.shape());
            c.save("xhat", xhat);
            c.save("invStd", m.invStd);
            const poplar::Type type = x.elementType();
            c.setOutput(0, mapExpr(c, pe::_1 * pe::_2 + pe::_3,
                                   {xhat, channelView(castTo(c, c.input(1), type), x),
                                    channelView(castTo(c, c.input(2), type), x)},
                                   "scale"));
            if (c.hasOutput(1))
                c.setOutput(1, m.meanRaw.flatten());
            if (c.hasOutput(2))
                c.setOutput(2, m.invStdRaw.flatten());
        },
        [](GradContext& c) {
            Tensor x = c.input(0), g = c.outputGrad(0), xhat = c.saved("xhat");
            addScaleBiasGrads(c, g, xhat, allBut(x.rank(), 1));
            if (c.needsInputGrad(0)) {
                Tensor invStd = c.saved("invStd");
                const auto grouped = invStd.shape();
                Tensor scale = castTo(c, c.input(1), x.elementType());
                Tensor dxhat = mapExpr(c, pe::_1 * pe::_2, {g, channelView(scale, x)}, "gradXhat");
                c.addInputGrad(
                    0, normGrad(c, dxhat.reshape(grouped), xhat.reshape(grouped), invStd, {2})
                           .reshape(x.shape()));
            }
        });
    groupNorm.domain = "ai.graphcore";
    groupNorm.inferShape = [](ShapeContext& c) {
        const TensorInfo& x = c.inputInfo(0);
        std::vector<std::size_t> shape;
        for (auto d : x.shape())
            shape.push_back(std::size_t(d));
        const std::size_t groups = groupCount(c, shape);
        c.setOutputInfo(0, x);
        const TensorInfo stats(x.dataType(), Shape{int64_t(shape[0] * groups)});
        for (std::size_t i = 1; i < c.numOutputs(); ++i)
            c.setOutputInfo(i, stats);
    };
    r.add(groupNorm);
    // InstanceNormalization: each sample's channel normalised over its spatial dimensions, then
    // scaled and shifted per channel (torch's GroupNorm exports through it).
    r.add(onnxOp(
        "InstanceNormalization",
        [](LoweringContext& c) {
            Tensor x = c.input(0);
            if (x.rank() < 3)
                c.invalid("the input needs at least 3 dimensions (N, C, D...)");
            std::vector<std::size_t> dims;
            for (std::size_t d = 2; d < x.rank(); ++d)
                dims.push_back(d);
            Moments m = moments(c, x, dims, c.attrs().getFloat("epsilon", 1e-5f));
            Tensor xhat =
                mapExpr(c, (pe::_1 - pe::_2) * pe::_3, {x, m.mean, m.invStd}, "normalise");
            c.save("xhat", xhat);
            c.save("invStd", m.invStd);
            c.setOutput(0, mapExpr(c, pe::_1 * pe::_2 + pe::_3,
                                   {xhat, channelView(c.input(1), x), channelView(c.input(2), x)},
                                   "scale"));
        },
        [](GradContext& c) {
            Tensor x = c.input(0), g = c.outputGrad(0), xhat = c.saved("xhat");
            const auto perChannel = allBut(x.rank(), 1);
            std::vector<std::size_t> spatial;
            for (std::size_t d = 2; d < x.rank(); ++d)
                spatial.push_back(d);
            addScaleBiasGrads(c, g, xhat, perChannel);
            if (c.needsInputGrad(0)) {
                Tensor dxhat =
                    mapExpr(c, pe::_1 * pe::_2, {g, channelView(c.input(1), x)}, "gradXhat");
                c.addInputGrad(0, normGrad(c, dxhat, xhat, c.saved("invStd"), spatial));
            }
        }));
    // ONNX infers only output 0 when BatchNormalization-9..13 lists the training outputs: the
    // running and saved statistics are per channel.
    batchNorm.inferShape = [](ShapeContext& c) {
        const TensorInfo& x = c.inputInfo(0);
        c.setOutputInfo(0, x);
        if (x.rank() < 2)
            return;
        for (std::size_t i = 1; i < c.numOutputs(); ++i)
            c.setOutputInfo(i, TensorInfo(x.dataType(), Shape{x.shape()[1]}));
    };
    r.add(std::move(batchNorm));
    // Dropout: the identity in inference (and with ratio 0); in training x * mask / (1 - ratio)
    // with a mask drawn by poprand from the session's seed, which advances every batch.
    r.add(onnxOp(
        "Dropout",
        [](LoweringContext& c) {
            Tensor x = c.input(0);
            bool train = c.isTraining();
            if (c.opset() >= 12 && c.hasInput(2))
                train = c.constant(2).values.at(0) != 0;
            // The ratio matters only when training (then it must be a constant).
            float ratio = c.attrs().getFloat("ratio", 0.5f);
            if (train && c.opset() >= 12 && c.hasInput(1))
                ratio = float(c.constant(1).values.at(0));
            if (!train || ratio == 0.0f) {
                c.setOutput(0, popops::map(c.graph(), pe::_1, {x}, c.prog(), c.di()));
                if (c.hasOutput(1)) {
                    Tensor all = c.graph().addConstant(poplar::BOOL, x.shape(), true, c.di("mask"));
                    mapLinearly(c.graph(), all);
                    c.setOutput(1, all);
                }
                return;
            }
            Tensor seed = c.randomSeed();
            Tensor u = poprand::uniform(c.graph(), &seed, c.seedModifier(), x, x.elementType(), 0.0,
                                        1.0, c.prog(), c.di("draw"));
            Tensor keep = mapExpr(
                c, pe::Max(pe::Signum(pe::_1 - pe::Const(ratio)), pe::Const(0.0f)), {u}, "keep");
            c.save("keep", keep);
            c.setOutput(0,
                        mapExpr(c, pe::_1 * pe::_2 / pe::Const(1.0f - ratio), {x, keep}, "scale"));
            if (c.hasOutput(1))
                c.setOutput(1, mapExpr(c, pe::_1 > pe::Const(0.5f), {keep}, "mask"));
        },
        [](GradContext& c) {
            float ratio = c.attrs().getFloat("ratio", 0.5f);
            if (c.opset() >= 12 && c.hasInput(1))
                ratio = float(c.constant(1).values.at(0));
            if (!c.isTraining() || ratio == 0.0f) {
                c.addInputGrad(0, c.outputGrad(0));
                return;
            }
            c.addInputGrad(0, mapExpr(c, pe::_1 * pe::_2 / pe::Const(1.0f - ratio),
                                      {c.outputGrad(0), c.saved("keep")}, "grad"));
        }));
}

} // namespace popart
