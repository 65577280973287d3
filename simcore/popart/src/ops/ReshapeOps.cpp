// Ops that only re-view their input: Reshape, Flatten, Squeeze, Unsqueeze, Identity, Transpose,
// Expand, Tile. Forward they are poplar::Tensor views (no compute set, no copy); their
// gradients re-view the output's gradient back.
#include "ops/OpGroups.hpp"
#include "ops/ViewOps.hpp"

#include <algorithm>
#include <numeric>
#include <popops/Fill.hpp>
#include <poputil/TileMapping.hpp>

namespace popart {
namespace views {

std::vector<std::size_t> dims(const Shape& shape) {
    return std::vector<std::size_t>(shape.begin(), shape.end());
}

poplar::Tensor filledVariable(LoweringContext& ctx, const poplar::Type& type, const Shape& shape,
                              double value, const std::string& name) {
    poplar::Tensor t = ctx.graph().addVariable(type, dims(shape), ctx.di(name));
    poputil::mapTensorLinearly(ctx.graph(), t);
    popops::fill(ctx.graph(), t, ctx.prog(), value, ctx.di(name));
    return t;
}

namespace {

/// An op whose output is its input re-shaped to the inferred output shape.
void reshapeForward(LoweringContext& ctx) {
    ctx.setOutput(0, ctx.input(0).reshape(dims(ctx.outputInfo(0).shape())));
}

void reshapeGrad(GradContext& ctx) {
    if (ctx.needsInputGrad(0))
        ctx.addInputGrad(0, ctx.outputGrad(0).reshape(dims(ctx.inputInfo(0).shape())));
}

void setOut(ShapeContext& ctx, const Shape& shape) {
    ctx.setOutputInfo(0, TensorInfo(ctx.inputInfo(0).dataType(), shape));
}

/// Folds an op that re-views its input to the shape `infer` works out.
FoldFn reshapeFold(const ShapeFn& infer) {
    return [infer](ShapeContext& ctx) {
        infer(ctx);
        return std::vector<HostTensor>{
            hostReshape(ctx.constant(0), ctx.outputInfos().at(0).shape())};
    };
}

void inferReshape(ShapeContext& ctx) {
    bool allowZero = ctx.opset() >= 14 && ctx.attrs().getInt("allowzero", 0) != 0;
    Ints shape = ctx.opset() < 5 ? ctx.attrs().getInts("shape") : staticInts(ctx, 1, "shape");
    setOut(ctx, reshapeTarget(ctx, ctx.inputInfo(0).shape(), shape, allowZero));
}

void inferFlatten(ShapeContext& ctx) {
    const Shape& in = ctx.inputInfo(0).shape();
    int64_t rank = static_cast<int64_t>(in.size());
    int64_t axis = ctx.attrs().getInt("axis", 1);
    if (axis < -rank || axis > rank)
        ctx.invalid("axis " + std::to_string(axis) + " is out of range");
    if (axis < 0)
        axis += rank;
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < rank; ++d)
        (d < axis ? outer : inner) *= in[static_cast<std::size_t>(d)];
    setOut(ctx, {outer, inner});
}

void inferSqueeze(ShapeContext& ctx) {
    const Shape& in = ctx.inputInfo(0).shape();
    int64_t rank = static_cast<int64_t>(in.size());
    bool given = false;
    Ints axes = normaliseAxes(ctx, attributeOrInput(ctx, "axes", 13, 1, {}, &given), rank, "axis");
    Shape out;
    for (int64_t d = 0; d < rank; ++d) {
        bool listed = std::find(axes.begin(), axes.end(), d) != axes.end();
        int64_t size = in[static_cast<std::size_t>(d)];
        if (listed && size != 1)
            ctx.invalid("axis " + std::to_string(d) + " has size " + std::to_string(size) +
                        ", not 1");
        if (!(listed || (axes.empty() && size == 1)))
            out.push_back(size);
    }
    setOut(ctx, out);
}

void inferUnsqueeze(ShapeContext& ctx) {
    const Shape& in = ctx.inputInfo(0).shape();
    Ints axes = attributeOrInput(ctx, "axes", 13, 1, {});
    int64_t rank = static_cast<int64_t>(in.size() + axes.size());
    axes = normaliseAxes(ctx, axes, rank, "axis");
    Shape out;
    std::size_t next = 0;
    for (int64_t d = 0; d < rank; ++d) {
        if (std::find(axes.begin(), axes.end(), d) != axes.end())
            out.push_back(1);
        else
            out.push_back(in.at(next++));
    }
    setOut(ctx, out);
}

void inferIdentity(ShapeContext& ctx) {
    setOut(ctx, ctx.inputInfo(0).shape());
}

Ints transposePerm(const NodeView& node, const NodeAttributes& attrs, std::size_t rank) {
    Ints perm(rank);
    for (std::size_t d = 0; d < rank; ++d)
        perm[d] = static_cast<int64_t>(rank - 1 - d);
    perm = attrs.getInts("perm", perm);
    Ints sorted = normaliseAxes(node, perm, static_cast<int64_t>(rank), "perm entry");
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t d = 0; d < sorted.size(); ++d)
        if (sorted[d] != static_cast<int64_t>(d) || sorted.size() != rank)
            node.invalid("perm is not a permutation of the input's dimensions");
    return normaliseAxes(node, perm, static_cast<int64_t>(rank), "perm entry");
}

void inferTranspose(ShapeContext& ctx) {
    const Shape& in = ctx.inputInfo(0).shape();
    Shape out;
    for (int64_t p : transposePerm(ctx, ctx.attrs(), in.size()))
        out.push_back(in[static_cast<std::size_t>(p)]);
    setOut(ctx, out);
}

std::vector<unsigned> unsignedPerm(const Ints& perm) {
    return std::vector<unsigned>(perm.begin(), perm.end());
}

void transposeForward(LoweringContext& ctx) {
    Ints perm = transposePerm(ctx, ctx.attrs(), ctx.inputInfo(0).shape().size());
    ctx.setOutput(0, ctx.input(0).dimShuffle(unsignedPerm(perm)));
}

void transposeGrad(GradContext& ctx) {
    if (!ctx.needsInputGrad(0))
        return;
    Ints perm = transposePerm(ctx, ctx.attrs(), ctx.inputInfo(0).shape().size());
    Ints inverse(perm.size());
    for (std::size_t d = 0; d < perm.size(); ++d)
        inverse[static_cast<std::size_t>(perm[d])] = static_cast<int64_t>(d);
    ctx.addInputGrad(0, ctx.outputGrad(0).dimShuffle(unsignedPerm(inverse)));
}

/// Expand: numpy broadcast of the input and the shape input (either may be the larger).
void inferExpand(ShapeContext& ctx) {
    Ints shape = staticInts(ctx, 1, "shape");
    setOut(ctx, broadcastShapes(ctx, ctx.inputInfo(0).shape(), Shape(shape.begin(), shape.end())));
}

/// `t` broadcast (as views) to `shape`, which has at least t's rank.
poplar::Tensor broadcastView(poplar::Tensor t, const Shape& shape) {
    std::vector<std::size_t> lifted(shape.size() - t.rank(), 1);
    std::vector<std::size_t> tShape = t.shape();
    lifted.insert(lifted.end(), tShape.begin(), tShape.end());
    t = t.reshape(lifted);
    for (unsigned d = 0; d < shape.size(); ++d)
        if (t.dim(d) == 1 && shape[d] != 1)
            t = t.broadcast(static_cast<unsigned>(shape[d]), d);
    return t;
}

void expandForward(LoweringContext& ctx) {
    ctx.setOutput(0, broadcastView(ctx.input(0), ctx.outputInfo(0).shape()));
}

void expandGrad(GradContext& ctx) {
    // addInputGrad sums a broadcast operand's gradient over the broadcast dimensions.
    if (ctx.needsInputGrad(0))
        ctx.addInputGrad(0, ctx.outputGrad(0));
}

Ints tileRepeats(const ShapeContext& ctx) {
    Ints repeats = staticInts(ctx, 1, "repeats");
    if (repeats.size() != ctx.inputInfo(0).shape().size())
        ctx.invalid("repeats has " + std::to_string(repeats.size()) + " values for rank " +
                    std::to_string(ctx.inputInfo(0).shape().size()));
    for (int64_t r : repeats)
        if (r < 0)
            ctx.invalid("a repeat is negative");
    return repeats;
}

void inferTile(ShapeContext& ctx) {
    Ints repeats = tileRepeats(ctx);
    Shape out = ctx.inputInfo(0).shape();
    for (std::size_t d = 0; d < out.size(); ++d)
        out[d] *= repeats[d];
    setOut(ctx, out);
}

void tileForward(LoweringContext& ctx) {
    poplar::Tensor t = ctx.input(0);
    const Shape& in = ctx.inputInfo(0).shape();
    const Shape& out = ctx.outputInfo(0).shape();
    for (unsigned d = 0; d < in.size(); ++d) {
        if (in[d] == 0 || out[d] == in[d])
            continue;
        std::vector<poplar::Tensor> copies(static_cast<std::size_t>(out[d] / in[d]), t);
        t = copies.empty() ? t.slice(0, 0, d) : poplar::concat(copies, d);
    }
    ctx.setOutput(0, t);
}

OpLowering entry(const char* opType, int minOpset, ShapeFn infer, FoldFn fold, ForwardFn forward,
                 GradFn grad) {
    OpLowering op;
    op.domain = "";
    op.opType = opType;
    op.minOpset = minOpset;
    op.inferShape = std::move(infer);
    op.fold = std::move(fold);
    op.forward = std::move(forward);
    op.grad = std::move(grad);
    return op;
}

} // namespace

void registerReshapeOps(OpLoweringRegistry& registry) {
    registry.add(
        entry("Reshape", 1, inferReshape, reshapeFold(inferReshape), reshapeForward, reshapeGrad));
    registry.add(
        entry("Flatten", 1, inferFlatten, reshapeFold(inferFlatten), reshapeForward, reshapeGrad));
    registry.add(
        entry("Squeeze", 1, inferSqueeze, reshapeFold(inferSqueeze), reshapeForward, reshapeGrad));
    registry.add(entry("Unsqueeze", 1, inferUnsqueeze, reshapeFold(inferUnsqueeze), reshapeForward,
                       reshapeGrad));
    registry.add(entry("Identity", 1, inferIdentity, reshapeFold(inferIdentity), reshapeForward,
                       reshapeGrad));
    registry.add(entry(
        "Transpose", 1, inferTranspose,
        [](ShapeContext& ctx) {
            Ints perm = transposePerm(ctx, ctx.attrs(), ctx.inputInfo(0).shape().size());
            return std::vector<HostTensor>{hostTranspose(ctx.constant(0), perm)};
        },
        transposeForward, transposeGrad));
    registry.add(entry(
        "Expand", 8, inferExpand,
        [](ShapeContext& ctx) {
            inferExpand(ctx);
            return std::vector<HostTensor>{
                hostBroadcast(ctx.constant(0), ctx.outputInfos().at(0).shape())};
        },
        expandForward, expandGrad));
    registry.add(entry(
        "Tile", 6, inferTile,
        [](ShapeContext& ctx) {
            return std::vector<HostTensor>{hostTile(ctx.constant(0), tileRepeats(ctx))};
        },
        tileForward, GradFn()));
}

} // namespace views
} // namespace popart
