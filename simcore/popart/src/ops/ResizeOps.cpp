// Resize (opsets 10 to 19) and Upsample (7 to 9) in nearest and linear modes, as torch exports
// nn.Upsample / F.interpolate: each output position reads the input position(s) ONNX's
// coordinate transformation gives, dimension by dimension. Nearest is a view of runs of
// broadcast input slices; linear mixes two such views with constant weights. The gradient sums
// each input position's run of the output gradient (one reduction when the scale is a whole
// number). Cubic mode and antialias are refused.
#include "ops/LoweringState.hpp"
#include "ops/OpHelpers.hpp"
#include "ops/ViewOps.hpp"

#include <algorithm>
#include <cmath>
#include <popops/Reduce.hpp>

namespace popart {
namespace views {

namespace {

using poplar::Tensor;

/// The input coordinate of output position `o` along one dimension (ONNX's
/// coordinate_transformation_mode; Upsample and Resize-10 are asymmetric).
double sourceCoordinate(const NodeView& v, int64_t o, int64_t in, int64_t out, double scale) {
    const bool legacy = v.opType() == "Upsample" || v.opset() < 11;
    const std::string transform =
        legacy ? "asymmetric" : v.attrs().getString("coordinate_transformation_mode", "half_pixel");
    // The resized length is in * scale before rounding down to the output size (ONNX's
    // reference), which align_corners and pytorch_half_pixel divide by.
    const double resized = scale > 0 ? double(in) * scale : double(out);
    if (transform == "half_pixel")
        return (double(o) + 0.5) / scale - 0.5;
    if (transform == "pytorch_half_pixel")
        return resized > 1 ? (double(o) + 0.5) / scale - 0.5 : 0.0;
    if (transform == "align_corners")
        return resized > 1 ? double(o) * double(in - 1) / (resized - 1) : 0.0;
    if (transform == "asymmetric")
        return double(o) / scale;
    if (transform == "tf_half_pixel_for_nearest")
        return (double(o) + 0.5) / scale;
    v.unsupported("coordinate_transformation_mode '" + transform + "'");
}

/// The input index of every output position along one dimension (nearest mode).
std::vector<std::size_t> nearestIndices(const NodeView& v, int64_t in, int64_t out, double scale) {
    const bool legacy = v.opType() == "Upsample" || v.opset() < 11;
    const std::string rounding =
        legacy ? "floor" : v.attrs().getString("nearest_mode", "round_prefer_floor");
    std::vector<std::size_t> idx;
    for (int64_t o = 0; o < out; ++o) {
        const double x = sourceCoordinate(v, o, in, out, scale);
        double r = 0;
        if (rounding == "floor")
            r = std::floor(x);
        else if (rounding == "ceil")
            r = std::ceil(x);
        else if (rounding == "round_prefer_floor")
            r = x - std::floor(x) == 0.5 ? std::floor(x) : std::round(x);
        else if (rounding == "round_prefer_ceil")
            r = x - std::floor(x) == 0.5 ? std::ceil(x) : std::round(x);
        else
            v.unsupported("nearest_mode '" + rounding + "'");
        idx.push_back(std::size_t(std::min<double>(std::max<double>(r, 0.0), double(in - 1))));
    }
    return idx;
}

/// Linear mode along one dimension: output o = (1 - w[o]) x[lo[o]] + w[o] x[hi[o]], the source
/// coordinate clamped to the input (ONNX's reference pads the edges).
struct LinearTaps {
    std::vector<std::size_t> lo, hi;
    std::vector<float> w;
};

LinearTaps linearTaps(const NodeView& v, int64_t in, int64_t out, double scale) {
    LinearTaps t;
    for (int64_t o = 0; o < out; ++o) {
        double x = std::min<double>(std::max<double>(sourceCoordinate(v, o, in, out, scale), 0.0),
                                    double(in - 1));
        const std::size_t lo = std::size_t(std::floor(x));
        t.lo.push_back(lo);
        t.hi.push_back(std::min<std::size_t>(lo + 1, std::size_t(in - 1)));
        t.w.push_back(float(x - double(lo)));
    }
    return t;
}

bool isIdentity(const std::vector<std::size_t>& idx, int64_t in) {
    bool identity = int64_t(idx.size()) == in;
    for (std::size_t o = 0; identity && o < idx.size(); ++o)
        identity = idx[o] == o;
    return identity;
}

/// The view of `x` whose position o along `d` is x's position idx[o] (idx non-decreasing).
Tensor gatherRuns(const Tensor& x, const std::vector<std::size_t>& idx, std::size_t d) {
    std::vector<Tensor> runs;
    for (std::size_t o = 0; o < idx.size();) {
        std::size_t end = o;
        while (end < idx.size() && idx[end] == idx[o])
            ++end;
        runs.push_back(
            x.slice(idx[o], idx[o] + 1, unsigned(d)).broadcast(unsigned(end - o), unsigned(d)));
        o = end;
    }
    return poplar::concat(runs, unsigned(d));
}

/// The adjoint of gatherRuns: position i along `d` sums g's positions o with idx[o] == i.
Tensor sumRuns(GradContext& c, const Tensor& g, const std::vector<std::size_t>& idx, std::size_t d,
               int64_t in) {
    // A whole-number upsampling (o -> o / k): one reduction over a split dimension.
    const std::size_t k = std::size_t(int64_t(idx.size()) / std::max<int64_t>(in, 1));
    bool blocks = k >= 1 && idx.size() == std::size_t(in) * k;
    for (std::size_t o = 0; blocks && o < idx.size(); ++o)
        blocks = idx[o] == o / k;
    if (blocks) {
        std::vector<std::size_t> split = g.shape();
        split[d] = std::size_t(in);
        split.insert(split.begin() + std::ptrdiff_t(d) + 1, k);
        return popops::reduce(c.graph(), g.reshape(split), {d + 1}, popops::Operation::ADD,
                              c.prog(), c.di("grad"));
    }
    // Otherwise each input position sums its run of output positions (none: zero).
    std::vector<Tensor> parts;
    for (std::size_t i = 0; i < std::size_t(in); ++i) {
        std::size_t begin = 0;
        while (begin < idx.size() && idx[begin] != i)
            ++begin;
        std::size_t end = begin;
        while (end < idx.size() && idx[end] == i)
            ++end;
        std::vector<std::size_t> shape = g.shape();
        shape[d] = 1;
        if (begin == end) {
            parts.push_back(filledVariable(c, g.elementType(), Shape(shape.begin(), shape.end()),
                                           0.0, "gradZero"));
            continue;
        }
        parts.push_back(popops::reduce(c.graph(), g.slice(begin, end, unsigned(d)), {d},
                                       popops::Operation::ADD, c.prog(), c.di("grad"))
                            .reshape(shape));
    }
    return poplar::concat(parts, unsigned(d));
}

/// The weights w along dimension `d` of a tensor of `shape`, as a constant broadcast view.
Tensor weightsAlong(LoweringContext& c, const std::vector<float>& w, std::size_t d,
                    const std::vector<std::size_t>& shape, const poplar::Type& type) {
    std::vector<std::size_t> one(shape.size(), 1);
    one[d] = w.size();
    Tensor k = c.graph().addConstant(poplar::FLOAT, {w.size()}, w.data(), c.di("weights"));
    mapLinearly(c.graph(), k);
    k = castTo(c, k, type).reshape(one);
    for (std::size_t e = 0; e < shape.size(); ++e)
        if (e != d)
            k = k.broadcast(unsigned(shape[e]), unsigned(e));
    return k;
}

/// The per-dimension scales: the scales input (or Upsample-7's attribute), else out / in.
template <typename Ctx> std::vector<double> scalesOf(Ctx& c) {
    const Shape& in = c.inputInfo(0).shape();
    const Shape& out = c.outputInfo(0).shape();
    std::vector<double> scales;
    std::size_t scalesInput = c.opType() == "Upsample" || c.opset() < 11 ? 1 : 2;
    if (c.opType() == "Upsample" && c.opset() < 9) {
        for (float s : c.attrs().getFloats("scales", {}))
            scales.push_back(s);
    } else if (c.hasInput(scalesInput) && c.inputInfo(scalesInput).nelms() > 0) {
        if (!c.isConstant(scalesInput))
            c.unsupported("scales computed at run time");
        scales = c.constant(scalesInput).values;
    }
    if (scales.empty())
        for (std::size_t d = 0; d < in.size(); ++d)
            scales.push_back(double(out[d]) / double(in[d]));
    if (scales.size() != in.size())
        c.invalid("scales do not match the input's rank");
    return scales;
}

template <typename Ctx> bool isLinear(Ctx& c) {
    const std::string mode = c.attrs().getString("mode", "nearest");
    if (mode != "nearest" && mode != "linear")
        c.unsupported("mode '" + mode + "' (nearest and linear are)");
    if (c.attrs().getInt("antialias", 0) != 0)
        c.unsupported("antialias");
    if (c.opType() == "Resize" && c.opset() >= 18 &&
        (c.attrs().has("axes") ||
         c.attrs().getString("keep_aspect_ratio_policy", "stretch") != "stretch"))
        c.unsupported("axes and keep_aspect_ratio_policy");
    return mode == "linear";
}

void resizeForward(LoweringContext& c) {
    const bool linear = isLinear(c);
    const Shape& in = c.inputInfo(0).shape();
    const Shape& out = c.outputInfo(0).shape();
    const std::vector<double> scales = scalesOf(c);
    Tensor y = c.input(0);
    for (std::size_t d = 0; d < in.size(); ++d) {
        if (!linear) {
            const auto idx = nearestIndices(c, in[d], out[d], scales[d]);
            if (!isIdentity(idx, in[d]))
                y = gatherRuns(y, idx, d);
            continue;
        }
        const LinearTaps t = linearTaps(c, in[d], out[d], scales[d]);
        if (isIdentity(t.lo, in[d]) &&
            std::all_of(t.w.begin(), t.w.end(), [](float w) { return w == 0.0f; }))
            continue;
        Tensor lo = gatherRuns(y, t.lo, d), hi = gatherRuns(y, t.hi, d);
        Tensor w = weightsAlong(c, t.w, d, lo.shape(), y.elementType());
        y = mapExpr(c, pe::_1 + (pe::_2 - pe::_1) * pe::_3, {lo, hi, w}, "linear");
    }
    c.setOutput(0, y);
}

void resizeGrad(GradContext& c) {
    if (!c.needsInputGrad(0))
        return;
    const bool linear = isLinear(c);
    const Shape& in = c.inputInfo(0).shape();
    const Shape& out = c.outputInfo(0).shape();
    const std::vector<double> scales = scalesOf(c);
    // The forward resizes dimension by dimension; the gradient undoes them in reverse, each
    // against the shape the forward had at that point.
    Tensor g = c.outputGrad(0);
    for (std::size_t d = in.size(); d-- > 0;) {
        if (!linear) {
            const auto idx = nearestIndices(c, in[d], out[d], scales[d]);
            if (!isIdentity(idx, in[d]))
                g = sumRuns(c, g, idx, d, in[d]);
            continue;
        }
        const LinearTaps t = linearTaps(c, in[d], out[d], scales[d]);
        if (isIdentity(t.lo, in[d]) &&
            std::all_of(t.w.begin(), t.w.end(), [](float w) { return w == 0.0f; }))
            continue;
        Tensor w = weightsAlong(c, t.w, d, g.shape(), g.elementType());
        Tensor gLo = mapExpr(c, pe::_1 * (pe::Const(1.0f) - pe::_2), {g, w}, "gradLow");
        Tensor gHi = mapExpr(c, pe::_1 * pe::_2, {g, w}, "gradHigh");
        g = popops::add(c.graph(), sumRuns(c, gLo, t.lo, d, in[d]), sumRuns(c, gHi, t.hi, d, in[d]),
                        c.prog(), c.di("grad"));
    }
    c.addInputGrad(0, g);
}

} // namespace

void registerResizeOps(OpLoweringRegistry& registry) {
    for (const char* op : {"Resize", "Upsample"}) {
        OpLowering entry;
        entry.opType = op;
        entry.minOpset = std::string(op) == "Resize" ? 10 : 7;
        entry.forward = resizeForward;
        entry.grad = resizeGrad;
        registry.add(entry);
    }
}

} // namespace views
} // namespace popart
