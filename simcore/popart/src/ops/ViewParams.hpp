#pragma once
// The parameters of the view and data-movement ops (Reshape's target, Slice's ranges, pads,
// axes...) worked out once from a node's attributes and constant inputs, so that shape
// inference, constant folding and the device lowering agree. Each reader is a template over the
// context (ShapeContext or LoweringContext: both have attrs(), opset(), inputInfo(),
// isConstant() and constant()), and raises the node's own error for a parameter given by a
// non-constant input: the IPU compiles static shapes.

#include "ir/HostTensor.hpp"
#include "ops/OpLowering.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace popart {
namespace views {

using Ints = std::vector<int64_t>;

/// An axis in [-rank, rank) made non-negative; the node's error otherwise.
int64_t normaliseAxis(const NodeView& node, int64_t axis, int64_t rank, const char* what);
Ints normaliseAxes(const NodeView& node, const Ints& axes, int64_t rank, const char* what);

/// Input i's values, which must be known when the graph is built (initializer, Constant or
/// folded); `what` names the parameter in the error.
template <typename Ctx> Ints staticInts(const Ctx& ctx, std::size_t i, const char* what) {
    if (!ctx.isConstant(i))
        ctx.unsupported(std::string(what) + " given by a tensor computed at run time (input '" +
                        ctx.inputId(i) + "')");
    return ctx.constant(i).ints();
}

/// A parameter that is an attribute before `sinceOpset` and an optional input (index `input`)
/// from then on; `dflt` when absent.
template <typename Ctx>
Ints attributeOrInput(const Ctx& ctx, const char* name, int sinceOpset, std::size_t input,
                      const Ints& dflt, bool* given = nullptr) {
    if (ctx.opset() < sinceOpset) {
        if (given)
            *given = ctx.attrs().has(name);
        return ctx.attrs().getInts(name, dflt);
    }
    bool present = ctx.hasInput(input);
    if (given)
        *given = present;
    return present ? staticInts(ctx, input, name) : dflt;
}

/// Reshape's output shape: 0 copies the input's dimension (unless allowzero), -1 is inferred.
Shape reshapeTarget(const NodeView& node, const Shape& in, const Ints& shape, bool allowZero);

/// Slice of one dimension: begin, step (may be negative) and number of elements.
struct DimSlice {
    int64_t begin = 0;
    int64_t step = 1;
    int64_t size = 0;
};
/// Per-dimension slices of `in` from ONNX Slice's starts/ends/axes/steps (clamped as ONNX says).
std::vector<DimSlice> sliceRanges(const NodeView& node, const Shape& in, const Ints& starts,
                                  const Ints& ends, const Ints& axes, const Ints& steps);
template <typename Ctx> std::vector<DimSlice> sliceRanges(const Ctx& ctx) {
    const Shape& in = ctx.inputInfo(0).shape();
    if (ctx.opset() < 10)
        return sliceRanges(ctx, in, ctx.attrs().getInts("starts"), ctx.attrs().getInts("ends"),
                           ctx.attrs().getInts("axes"), {});
    Ints starts = staticInts(ctx, 1, "starts");
    Ints ends = staticInts(ctx, 2, "ends");
    Ints axes = ctx.hasInput(3) ? staticInts(ctx, 3, "axes") : Ints{};
    Ints steps = ctx.hasInput(4) ? staticInts(ctx, 4, "steps") : Ints{};
    return sliceRanges(ctx, in, starts, ends, axes, steps);
}

/// Split's part sizes along `axis` (from the split attribute/input, else num_outputs equal
/// parts, the last one smaller when the dimension does not divide).
template <typename Ctx> Ints splitSizes(const Ctx& ctx, int64_t axis) {
    int64_t dim = ctx.inputInfo(0).shape().at(static_cast<std::size_t>(axis));
    bool given = false;
    Ints sizes = attributeOrInput(ctx, "split", 13, 1, {}, &given);
    if (!given || sizes.empty()) {
        int64_t n = static_cast<int64_t>(ctx.numOutputs());
        if (ctx.opset() >= 18)
            n = ctx.attrs().getInt("num_outputs", n);
        int64_t part = (dim + n - 1) / n;
        sizes.clear();
        for (int64_t left = dim; left > 0; left -= part)
            sizes.push_back(left < part ? left : part);
        while (static_cast<int64_t>(sizes.size()) < n)
            sizes.push_back(0);
    }
    int64_t total = 0;
    for (int64_t s : sizes)
        total += s;
    if (total != dim || sizes.size() != ctx.numOutputs())
        ctx.invalid("split sizes do not add up to the dimension or match the outputs");
    return sizes;
}

/// numpy broadcast of two shapes; the node's error when they do not broadcast.
Shape broadcastShapes(const NodeView& node, const Shape& a, const Shape& b);

/// Pad's begin/end amounts per dimension (negative amounts crop).
struct PadAmounts {
    Ints begin;
    Ints end;
};
template <typename Ctx> PadAmounts padAmounts(const Ctx& ctx) {
    std::size_t rank = ctx.inputInfo(0).shape().size();
    Ints pads = ctx.opset() < 11 ? ctx.attrs().getInts("pads") : staticInts(ctx, 1, "pads");
    Ints axes;
    if (ctx.opset() >= 18 && ctx.hasInput(3))
        axes = normaliseAxes(ctx, staticInts(ctx, 3, "axes"), static_cast<int64_t>(rank), "axes");
    else
        for (std::size_t d = 0; d < rank; ++d)
            axes.push_back(static_cast<int64_t>(d));
    if (pads.size() != 2 * axes.size())
        ctx.invalid("pads has " + std::to_string(pads.size()) + " values for " +
                    std::to_string(axes.size()) + " axes");
    PadAmounts p{Ints(rank, 0), Ints(rank, 0)};
    for (std::size_t k = 0; k < axes.size(); ++k) {
        p.begin[static_cast<std::size_t>(axes[k])] = pads[k];
        p.end[static_cast<std::size_t>(axes[k])] = pads[k + axes.size()];
    }
    return p;
}

/// The input position a padded position q (negative before the data, >= n after it) takes in
/// mode "edge" (the nearest end) or "reflect" (mirrored without repeating the end).
int64_t padSource(const std::string& mode, int64_t q, int64_t n);

/// Host evaluation of the data-movement ops for constant folding: each output element is an
/// element of the input (or a fill value), found through index arithmetic.
HostTensor hostReshape(const HostTensor& in, const Shape& shape);
HostTensor hostTranspose(const HostTensor& in, const Ints& perm);
HostTensor hostSlice(const HostTensor& in, const std::vector<DimSlice>& ranges);
HostTensor hostConcat(const std::vector<const HostTensor*>& ins, int64_t axis);
HostTensor hostGather(const HostTensor& data, const HostTensor& indices, int64_t axis);
HostTensor hostBroadcast(const HostTensor& in, const Shape& shape);
HostTensor hostTile(const HostTensor& in, const Ints& repeats);
HostTensor hostPad(const HostTensor& in, const PadAmounts& pads, const std::string& mode,
                   double value);
/// The values converted to `type` as the device would (integers truncate toward zero, BOOL is
/// "not zero").
HostTensor hostCast(const HostTensor& in, DataType type);

} // namespace views
} // namespace popart
