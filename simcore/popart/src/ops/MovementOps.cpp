// Ops that select or assemble data: Concat, Slice, Split (views), Gather (a view for constant
// indices, dynamic slices for indices computed at run time), GatherElements (one-hot rows) and Pad
// (a filled variable with the input copied in). Gradients: Concat and Split slice/assemble the
// gradient back, Slice and Pad copy it into a zero tensor of the input's shape, Gather scatter-adds
// it with popops::multiUpdateAdd (correct when an index repeats).
#include "ops/OpGroups.hpp"
#include "ops/ViewOps.hpp"

#include <algorithm>
#include <functional>
#include <poplar/Program.hpp>
#include <poplin/MatMul.hpp>
#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Encoding.hpp>
#include <popops/Reduction.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>

namespace popart {
namespace views {

poplar::Tensor sliceView(const poplar::Tensor& t, const std::vector<DimSlice>& ranges) {
    poplar::Tensor v = t;
    for (unsigned d = 0; d < ranges.size(); ++d) {
        const DimSlice& r = ranges[d];
        if (r.size == 0) {
            v = v.slice(0, 0, d);
            continue;
        }
        int64_t last = r.begin + (r.size - 1) * r.step;
        int64_t lo = r.step > 0 ? r.begin : last;
        int64_t hi = r.step > 0 ? last : r.begin;
        v = v.slice(static_cast<std::size_t>(lo), static_cast<std::size_t>(hi + 1), d);
        int64_t stride = r.step > 0 ? r.step : -r.step;
        if (stride > 1)
            v = v.subSample(static_cast<unsigned>(stride), d);
        if (r.step < 0)
            v = v.reverse(d);
    }
    return v;
}

namespace {

OpLowering entry(const char* opType, int minOpset, ShapeFn infer, FoldFn fold, ForwardFn forward,
                 GradFn grad) {
    OpLowering op;
    op.opType = opType;
    op.minOpset = minOpset;
    op.inferShape = std::move(infer);
    op.fold = std::move(fold);
    op.forward = std::move(forward);
    op.grad = std::move(grad);
    return op;
}

/// A zero tensor of input i's shape with `g` copied into the region `view` selects of it: the
/// gradient of an op that selected that region.
poplar::Tensor scatterIntoZeros(GradContext& ctx, std::size_t i, const poplar::Tensor& g,
                                const std::function<poplar::Tensor(poplar::Tensor)>& view) {
    const TensorInfo& info = ctx.inputInfo(i);
    poplar::Tensor z = filledVariable(ctx, g.elementType(), info.shape(), 0.0, "gradZeros");
    poplar::Tensor region = view(z);
    if (region.numElements() != 0)
        ctx.prog().add(poplar::program::Copy(g, region, false, ctx.di("gradCopy")));
    return z;
}

// --- Concat ---------------------------------------------------------------------------------

int64_t concatAxis(const ShapeContext& ctx) {
    if (ctx.opset() < 4 && !ctx.attrs().has("axis"))
        return 1; // Concat-1's default
    return normaliseAxis(ctx, ctx.attrs().getInt("axis", 0),
                         static_cast<int64_t>(ctx.inputInfo(0).shape().size()), "axis");
}
int64_t concatAxis(const LoweringContext& ctx) {
    if (ctx.opset() < 4 && !ctx.attrs().has("axis"))
        return 1;
    return normaliseAxis(ctx, ctx.attrs().getInt("axis", 0),
                         static_cast<int64_t>(ctx.inputInfo(0).shape().size()), "axis");
}

void inferConcat(ShapeContext& ctx) {
    int64_t axis = concatAxis(ctx);
    Shape out = ctx.inputInfo(0).shape();
    out[static_cast<std::size_t>(axis)] = 0;
    for (std::size_t i = 0; i < ctx.numInputs(); ++i) {
        const Shape& s = ctx.inputInfo(i).shape();
        for (std::size_t d = 0; d < out.size(); ++d)
            if (d != static_cast<std::size_t>(axis) && s.at(d) != out[d])
                ctx.invalid("inputs differ outside the concatenation axis");
        out[static_cast<std::size_t>(axis)] += s[static_cast<std::size_t>(axis)];
    }
    ctx.setOutputInfo(0, TensorInfo(ctx.inputInfo(0).dataType(), out));
}

void concatForward(LoweringContext& ctx) {
    std::vector<poplar::Tensor> parts;
    for (std::size_t i = 0; i < ctx.numInputs(); ++i)
        parts.push_back(ctx.input(i));
    ctx.setOutput(0, poplar::concat(parts, static_cast<unsigned>(concatAxis(ctx))));
}

void concatGrad(GradContext& ctx) {
    unsigned axis = static_cast<unsigned>(concatAxis(ctx));
    poplar::Tensor g = ctx.outputGrad(0);
    std::size_t offset = 0;
    for (std::size_t i = 0; i < ctx.numInputs(); ++i) {
        std::size_t size = static_cast<std::size_t>(ctx.inputInfo(i).shape()[axis]);
        if (ctx.needsInputGrad(i))
            ctx.addInputGrad(i, g.slice(offset, offset + size, axis));
        offset += size;
    }
}

// --- Slice ----------------------------------------------------------------------------------

void inferSlice(ShapeContext& ctx) {
    Shape out;
    for (const DimSlice& r : sliceRanges(ctx))
        out.push_back(r.size);
    ctx.setOutputInfo(0, TensorInfo(ctx.inputInfo(0).dataType(), out));
}

void sliceForward(LoweringContext& ctx) {
    ctx.setOutput(0, sliceView(ctx.input(0), sliceRanges(ctx)));
}

void sliceGrad(GradContext& ctx) {
    if (!ctx.needsInputGrad(0))
        return;
    std::vector<DimSlice> ranges = sliceRanges(ctx);
    ctx.addInputGrad(0, scatterIntoZeros(ctx, 0, ctx.outputGrad(0),
                                         [&](poplar::Tensor z) { return sliceView(z, ranges); }));
}

// --- Split ----------------------------------------------------------------------------------

template <typename Ctx> int64_t splitAxis(const Ctx& ctx) {
    return normaliseAxis(ctx, ctx.attrs().getInt("axis", 0),
                         static_cast<int64_t>(ctx.inputInfo(0).shape().size()), "axis");
}

void inferSplit(ShapeContext& ctx) {
    int64_t axis = splitAxis(ctx);
    Ints sizes = splitSizes(ctx, axis);
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        Shape out = ctx.inputInfo(0).shape();
        out[static_cast<std::size_t>(axis)] = sizes[i];
        ctx.setOutputInfo(i, TensorInfo(ctx.inputInfo(0).dataType(), out));
    }
}

void splitForward(LoweringContext& ctx) {
    int64_t axis = splitAxis(ctx);
    Ints sizes = splitSizes(ctx, axis);
    poplar::Tensor in = ctx.input(0);
    std::size_t offset = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        std::size_t size = static_cast<std::size_t>(sizes[i]);
        if (ctx.hasOutput(i))
            ctx.setOutput(i, in.slice(offset, offset + size, static_cast<unsigned>(axis)));
        offset += size;
    }
}

void splitGrad(GradContext& ctx) {
    if (!ctx.needsInputGrad(0))
        return;
    unsigned axis = static_cast<unsigned>(splitAxis(ctx));
    std::vector<poplar::Tensor> parts;
    for (std::size_t i = 0; i < ctx.numOutputs(); ++i)
        parts.push_back(ctx.outputGrad(i)); // zeros where no gradient flowed back
    ctx.addInputGrad(0, poplar::concat(parts, axis));
}

std::vector<HostTensor> splitFold(ShapeContext& ctx) {
    int64_t axis = splitAxis(ctx);
    Ints sizes = splitSizes(ctx, axis);
    std::vector<HostTensor> outs;
    int64_t offset = 0;
    const Shape& in = ctx.inputInfo(0).shape();
    for (int64_t size : sizes) {
        std::vector<DimSlice> ranges;
        for (std::size_t d = 0; d < in.size(); ++d)
            ranges.push_back(static_cast<int64_t>(d) == axis ? DimSlice{offset, 1, size}
                                                             : DimSlice{0, 1, in[d]});
        outs.push_back(hostSlice(ctx.constant(0), ranges));
        offset += size;
    }
    return outs;
}

// --- Gather ---------------------------------------------------------------------------------

template <typename Ctx> int64_t gatherAxis(const Ctx& ctx) {
    return normaliseAxis(ctx, ctx.attrs().getInt("axis", 0),
                         static_cast<int64_t>(ctx.inputInfo(0).shape().size()), "axis");
}

void inferGather(ShapeContext& ctx) {
    const Shape& data = ctx.inputInfo(0).shape();
    std::size_t axis = static_cast<std::size_t>(gatherAxis(ctx));
    Shape out(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(axis));
    const Shape& indices = ctx.inputInfo(1).shape();
    out.insert(out.end(), indices.begin(), indices.end());
    out.insert(out.end(), data.begin() + static_cast<std::ptrdiff_t>(axis) + 1, data.end());
    ctx.setOutputInfo(0, TensorInfo(ctx.inputInfo(0).dataType(), out));
}

/// The indices as UNSIGNED_INT offsets, negative ones counted from the end of the dimension.
poplar::Tensor gatherOffsets(LoweringContext& ctx, std::size_t dimSize) {
    namespace pe = popops::expr;
    poplar::Tensor idx = ctx.input(1).flatten();
    if (idx.elementType() != poplar::INT)
        idx = popops::cast(ctx.graph(), idx, poplar::INT, ctx.prog(), ctx.di("indices"));
    poplar::Tensor wrapped = popops::map(
        ctx.graph(),
        pe::Select(pe::_1 + pe::Const(static_cast<int>(dimSize)), pe::_1, pe::_1 < pe::Const(0)),
        {idx}, ctx.prog(), ctx.di("wrapIndices"));
    return popops::cast(ctx.graph(), wrapped, poplar::UNSIGNED_INT, ctx.prog(), ctx.di("offsets"));
}

void gatherForward(LoweringContext& ctx) {
    poplar::Tensor data = ctx.input(0);
    unsigned axis = static_cast<unsigned>(gatherAxis(ctx));
    std::size_t dimSize = data.dim(axis);
    std::vector<poplar::Tensor> rows;
    if (ctx.isConstant(1)) {
        // Known indices: the output is a view of the rows they pick.
        for (int64_t i : ctx.constantInts(1)) {
            int64_t j = i < 0 ? i + static_cast<int64_t>(dimSize) : i;
            if (j < 0 || j >= static_cast<int64_t>(dimSize))
                ctx.invalid("index " + std::to_string(i) + " is out of range");
            rows.push_back(
                data.slice(static_cast<std::size_t>(j), static_cast<std::size_t>(j) + 1, axis));
        }
    } else {
        // Indices computed at run time: as PopART's GatherOpx, one popops::multiSlice of the axis
        // for all of them, with the slice plan the data was laid out by when it is a weight.
        poplar::Tensor offsets = gatherOffsets(ctx, dimSize);
        if (offsets.numElements() != 0) {
            const auto plan = gatherSlicePlan(ctx.graph(), data.elementType(), data.shape(), axis,
                                              offsets.numElements(), false, ctx.attrs());
            poplar::Tensor slices = popops::multiSlice(ctx.graph(), data, offsets, {axis}, {1},
                                                       ctx.prog(), plan, {}, ctx.di("gather"));
            // {n, data's shape with the axis 1} -> {data[:axis], n, data[axis+1:]}.
            ctx.setOutput(0, slices.squeeze({axis + 1})
                                 .dimRoll(0, axis)
                                 .reshape(dims(ctx.outputInfo(0).shape())));
            return;
        }
    }
    poplar::Tensor gathered = rows.empty() ? data.slice(0, 0, axis) : poplar::concat(rows, axis);
    ctx.setOutput(0, gathered.reshape(dims(ctx.outputInfo(0).shape())));
}

/// d(data): the output gradient scattered into a zeroed tensor of data's shape by one
/// popops::multiUpdateAdd (a repeated index accumulates), as PopART's GatherGradOpx: the result
/// laid out by createSliceableTensor with the plan for the update.
void gatherGrad(GradContext& ctx) {
    if (!ctx.needsInputGrad(0))
        return;
    poplar::Graph& graph = ctx.graph();
    const Shape& data = ctx.inputInfo(0).shape();
    const unsigned axis = static_cast<unsigned>(gatherAxis(ctx));
    const std::size_t dimSize = static_cast<std::size_t>(data[axis]);
    const std::size_t numIndices = static_cast<std::size_t>(ctx.inputInfo(1).nelms());
    poplar::Tensor g = ctx.outputGrad(0);
    const poplar::Type type = g.elementType();
    const auto dataDims = dims(data);
    const auto plan = gatherSlicePlan(graph, type, dataDims, axis, numIndices, true, ctx.attrs());
    poplar::Tensor result = popops::createSliceableTensor(graph, type, dataDims, {axis}, {1}, plan,
                                                          {}, ctx.di("gradient"));
    popops::zero(graph, result, ctx.prog(), ctx.di("zeroGradient"));
    if (numIndices != 0 && result.numElements() != 0) {
        // g {data[:axis], indices..., data[axis+1:]} as the slices {n, data with the axis 1}.
        const std::size_t indexRank = ctx.inputInfo(1).shape().size();
        std::vector<unsigned> perm;
        for (unsigned d = 0; d < indexRank; ++d)
            perm.push_back(axis + d);
        for (unsigned d = 0; d < g.rank(); ++d)
            if (d < axis || d >= axis + indexRank)
                perm.push_back(d);
        std::vector<std::size_t> slicesShape = dataDims;
        slicesShape[axis] = 1;
        slicesShape.insert(slicesShape.begin(), numIndices);
        const poplar::Tensor updates = g.dimShuffle(perm).reshape(slicesShape);
        // PopART scales by a constant 1 of the update's type; the vertex reads a FLOAT scale for
        // HALF data, so it is made FLOAT here rather than cast on the device.
        const poplar::Type scaleType = type == poplar::HALF ? poplar::FLOAT : type;
        poplar::Tensor one = graph.addConstant(scaleType, {}, 1.0f, ctx.di("one"));
        graph.setTileMapping(one, 0);
        popops::multiUpdateAdd(graph, result, updates, gatherOffsets(ctx, dimSize), one, {axis},
                               {1}, ctx.prog(), plan, {}, ctx.di("scatterAdd"));
    }
    ctx.addInputGrad(0, result);
}

// --- GatherElements -------------------------------------------------------------------------

void inferGatherElements(ShapeContext& ctx) {
    if (ctx.inputInfo(1).shape().size() != ctx.inputInfo(0).shape().size())
        ctx.invalid("indices and data differ in rank");
    ctx.setOutputInfo(0, TensorInfo(ctx.inputInfo(0).dataType(), ctx.inputInfo(1).shape()));
}

std::vector<HostTensor> gatherElementsFold(ShapeContext& ctx) {
    const HostTensor& data = ctx.constant(0);
    const HostTensor& idx = ctx.constant(1);
    std::size_t axis = static_cast<std::size_t>(gatherAxis(ctx));
    const Shape& d = data.info.shape();
    const Shape& is = idx.info.shape();
    HostTensor out;
    out.info = TensorInfo(data.info.dataType(), is);
    Ints index(is.size(), 0);
    for (std::size_t flat = 0; flat < idx.values.size(); ++flat) {
        int64_t from = 0;
        for (std::size_t k = 0; k < is.size(); ++k) {
            int64_t i = index[k];
            if (k == axis) {
                i = static_cast<int64_t>(idx.values[flat]);
                i = i < 0 ? i + d[k] : i;
                if (i < 0 || i >= d[k])
                    ctx.invalid("index " + std::to_string(i) + " is out of range");
            }
            from = from * d[k] + i;
        }
        out.values.push_back(data.values.at(static_cast<std::size_t>(from)));
        for (std::size_t k = is.size(); k-- > 0;)
            if (++index[k] < is[k])
                break;
            else
                index[k] = 0;
    }
    return {out};
}

/// out[p] = data[p with p[axis] = indices[p]]: each output row of the axis picks its element
/// with a one-hot row (encodeOneHot of the indices) multiplied by the data and summed.
void gatherElementsForward(LoweringContext& ctx) {
    poplar::Graph& graph = ctx.graph();
    poplar::Tensor data = ctx.input(0);
    if (data.elementType() == poplar::BOOL)
        ctx.unsupported("BOOL data");
    unsigned axis = static_cast<unsigned>(gatherAxis(ctx));
    const Shape& is = ctx.inputInfo(1).shape();
    std::size_t dimSize = data.dim(axis);
    std::size_t n = static_cast<std::size_t>(ctx.inputInfo(1).nelms());

    poplar::Tensor oneHot = graph.addVariable(data.elementType(), {n, dimSize}, ctx.di("oneHot"));
    poputil::mapTensorLinearly(graph, oneHot);
    if (n != 0)
        popops::encodeOneHot(graph, gatherOffsets(ctx, dimSize), oneHot, ctx.prog(),
                             ctx.di("oneHot"));

    // The data each output element chooses from: `data` cut to the indices' extent outside the
    // axis, the axis moved last, and broadcast over the indices' extent of the axis.
    poplar::Tensor rows = data;
    for (unsigned d = 0; d < is.size(); ++d)
        if (d != axis)
            rows = rows.slice(0, static_cast<std::size_t>(is[d]), d);
    rows = rows.dimRoll(axis, rows.rank() - 1).expand({axis});
    rows = rows.broadcast(static_cast<unsigned>(is[axis]), axis).reshape({n, dimSize});

    poplar::Tensor picked = popops::map(graph, popops::expr::BinaryOpType::MULTIPLY, oneHot, rows,
                                        ctx.prog(), ctx.di("pick"));
    poplar::Tensor out =
        popops::reduce(graph, picked, {1}, popops::Operation::ADD, ctx.prog(), ctx.di("sum"));
    ctx.setOutput(0, out.reshape(dims(is)));
}

// --- Pad ------------------------------------------------------------------------------------

template <typename Ctx> std::string padMode(const Ctx& ctx) {
    std::string mode = ctx.attrs().getString("mode", "constant");
    if (mode != "constant" && mode != "edge" && mode != "reflect")
        ctx.unsupported("mode '" + mode + "'");
    return mode;
}

/// Whether the fill value is known when the graph is built (an attribute, absent, or a constant
/// input); else it is the device tensor of input 2.
template <typename Ctx> bool padValueKnown(const Ctx& ctx) {
    return ctx.opset() < 11 || !ctx.hasInput(2) || ctx.isConstant(2);
}

template <typename Ctx> double padValue(const Ctx& ctx) {
    if (ctx.opset() < 11)
        return ctx.attrs().getFloat("value", 0.0f);
    if (!ctx.hasInput(2))
        return 0.0;
    if (!ctx.isConstant(2))
        ctx.unsupported("constant_value computed at run time (when folding)");
    return ctx.constant(2).values.at(0);
}

void inferPad(ShapeContext& ctx) {
    padMode(ctx);
    PadAmounts p = padAmounts(ctx);
    Shape out = ctx.inputInfo(0).shape();
    for (std::size_t d = 0; d < out.size(); ++d) {
        out[d] += p.begin[d] + p.end[d];
        if (out[d] < 0)
            ctx.invalid("pads crop more than the dimension holds");
    }
    ctx.setOutputInfo(0, TensorInfo(ctx.inputInfo(0).dataType(), out));
}

void padForward(LoweringContext& ctx) {
    std::string mode = padMode(ctx);
    PadAmounts p = padAmounts(ctx);
    poplar::Tensor t = ctx.input(0);
    // Negative pads crop first.
    std::vector<DimSlice> crop;
    for (std::size_t d = 0; d < t.rank(); ++d) {
        int64_t n = static_cast<int64_t>(t.dim(static_cast<unsigned>(d)));
        int64_t b = p.begin[d] < 0 ? -p.begin[d] : 0;
        int64_t e = p.end[d] < 0 ? -p.end[d] : 0;
        crop.push_back(DimSlice{b, 1, n - b - e});
        p.begin[d] = std::max<int64_t>(p.begin[d], 0);
        p.end[d] = std::max<int64_t>(p.end[d], 0);
    }
    t = sliceView(t, crop);
    if (mode == "constant") {
        poplar::Tensor out;
        if (padValueKnown(ctx)) {
            out = filledVariable(ctx, t.elementType(), ctx.outputInfo(0).shape(), padValue(ctx),
                                 "padded");
        } else {
            // The fill value is a device tensor: copy it, broadcast, over the whole output first.
            Shape shape = ctx.outputInfo(0).shape();
            out = ctx.graph().addVariable(t.elementType(), dims(shape), ctx.di("padded"));
            poputil::mapTensorLinearly(ctx.graph(), out);
            poplar::Tensor v = ctx.input(2).flatten().slice(0, 1).reshape({});
            for (std::size_t d = 0; d < shape.size(); ++d)
                v = v.expand({0}).broadcast(static_cast<unsigned>(shape[shape.size() - 1 - d]), 0);
            if (out.numElements() != 0)
                ctx.prog().add(poplar::program::Copy(v, out, false, ctx.di("fill")));
        }
        std::vector<DimSlice> interior;
        for (std::size_t d = 0; d < t.rank(); ++d)
            interior.push_back(
                DimSlice{p.begin[d], 1, static_cast<int64_t>(t.dim(static_cast<unsigned>(d)))});
        if (t.numElements() != 0)
            ctx.prog().add(
                poplar::program::Copy(t, sliceView(out, interior), false, ctx.di("interior")));
        ctx.setOutput(0, out);
        return;
    }
    // edge / reflect: assemble each dimension from single-element views of the input.
    for (unsigned d = 0; d < t.rank(); ++d) {
        int64_t n = static_cast<int64_t>(t.dim(d));
        if (n == 0)
            ctx.invalid("cannot pad an empty dimension in mode '" + mode + "'");
        std::vector<poplar::Tensor> parts;
        auto element = [&](int64_t q) {
            std::size_t i = static_cast<std::size_t>(padSource(mode, q, n));
            return t.slice(i, i + 1, d);
        };
        for (int64_t q = -p.begin[d]; q < 0; ++q)
            parts.push_back(element(q));
        parts.push_back(t);
        for (int64_t q = n; q < n + p.end[d]; ++q)
            parts.push_back(element(q));
        t = poplar::concat(parts, d);
    }
    ctx.setOutput(0, t);
}

void padGrad(GradContext& ctx) {
    if (!ctx.needsInputGrad(0))
        return;
    if (padMode(ctx) != "constant")
        ctx.unsupported("the gradient of mode '" + padMode(ctx) + "'");
    PadAmounts p = padAmounts(ctx);
    // The input's gradient is the interior of the output's (cropped dimensions get zeros).
    const Shape& in = ctx.inputInfo(0).shape();
    std::vector<DimSlice> fromOut, intoIn;
    for (std::size_t d = 0; d < in.size(); ++d) {
        int64_t cropB = p.begin[d] < 0 ? -p.begin[d] : 0;
        int64_t cropE = p.end[d] < 0 ? -p.end[d] : 0;
        int64_t kept = in[d] - cropB - cropE;
        fromOut.push_back(DimSlice{std::max<int64_t>(p.begin[d], 0), 1, kept});
        intoIn.push_back(DimSlice{cropB, 1, kept});
    }
    poplar::Tensor g = sliceView(ctx.outputGrad(0), fromOut);
    ctx.addInputGrad(
        0, scatterIntoZeros(ctx, 0, g, [&](poplar::Tensor z) { return sliceView(z, intoIn); }));
}

} // namespace

void registerMovementOps(OpLoweringRegistry& registry) {
    registry.add(entry(
        "Concat", 1, inferConcat,
        [](ShapeContext& ctx) {
            std::vector<const HostTensor*> ins;
            for (std::size_t i = 0; i < ctx.numInputs(); ++i)
                ins.push_back(&ctx.constant(i));
            return std::vector<HostTensor>{hostConcat(ins, concatAxis(ctx))};
        },
        concatForward, concatGrad));
    registry.add(entry(
        "Slice", 1, inferSlice,
        [](ShapeContext& ctx) {
            return std::vector<HostTensor>{hostSlice(ctx.constant(0), sliceRanges(ctx))};
        },
        sliceForward, sliceGrad));
    registry.add(entry("Split", 1, inferSplit, splitFold, splitForward, splitGrad));
    registry.add(entry(
        "Gather", 1, inferGather,
        [](ShapeContext& ctx) {
            return std::vector<HostTensor>{
                hostGather(ctx.constant(0), ctx.constant(1), gatherAxis(ctx))};
        },
        gatherForward, gatherGrad));
    registry.add(entry("GatherElements", 11, inferGatherElements, gatherElementsFold,
                       gatherElementsForward, GradFn()));
    registry.add(entry(
        "Pad", 1, inferPad,
        [](ShapeContext& ctx) {
            return std::vector<HostTensor>{
                hostPad(ctx.constant(0), padAmounts(ctx), padMode(ctx), padValue(ctx))};
        },
        padForward, padGrad));
}

} // namespace views
} // namespace popart
