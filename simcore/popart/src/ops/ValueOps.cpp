// Ops that make or convert values: Shape, Size, Constant, ConstantOfShape (known when the graph
// is built: folded, or device constants), Cast and Where.
#include "ops/OpGroups.hpp"
#include "ops/ViewOps.hpp"

#include <algorithm>
#include <functional>
#include <poplar/Program.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/TileMapping.hpp>

namespace popart {
namespace views {

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

HostTensor intTensor(const Ints& values, const Shape& shape) {
    HostTensor t;
    t.info = TensorInfo(DataType::INT64, shape);
    t.values.assign(values.begin(), values.end());
    return t;
}

/// A device constant holding a host tensor's values (element type as the device holds it).
poplar::Tensor deviceConstant(LoweringContext& ctx, const HostTensor& value) {
    poplar::Type type = ctx.deviceType(value.info.dataType());
    if (value.values.empty()) // an empty tensor has no values to hold
        return ctx.graph().addVariable(type, dims(value.info.shape()), ctx.di("value"));
    poplar::Tensor c = ctx.graph().addConstant(type, dims(value.info.shape()), value.values.data(),
                                               ctx.di("value"));
    poputil::mapTensorLinearly(ctx.graph(), c);
    return c;
}

// --- Shape, Size ----------------------------------------------------------------------------

template <typename Ctx> Ints shapeValues(const Ctx& ctx) {
    const Shape& in = ctx.inputInfo(0).shape();
    int64_t rank = static_cast<int64_t>(in.size());
    int64_t start = ctx.attrs().getInt("start", 0);
    int64_t end = ctx.attrs().getInt("end", rank);
    start = std::clamp<int64_t>(start < 0 ? start + rank : start, 0, rank);
    end = std::clamp<int64_t>(end < 0 ? end + rank : end, 0, rank);
    return end > start ? Ints(in.begin() + start, in.begin() + end) : Ints{};
}

HostTensor shapeValue(const ShapeContext& ctx) {
    Ints v = shapeValues(ctx);
    return intTensor(v, {static_cast<int64_t>(v.size())});
}

HostTensor sizeValue(const ShapeContext& ctx) {
    return intTensor({ctx.inputInfo(0).nelms()}, {});
}

// --- Constant, ConstantOfShape --------------------------------------------------------------

HostTensor constantValue(const NodeView& node) {
    const NodeAttributes& a = node.attrs();
    if (a.has("value"))
        return a.getTensor("value");
    if (a.has("value_float")) {
        HostTensor t;
        t.info = TensorInfo(DataType::FLOAT, Shape{});
        t.values = {a.getFloat("value_float", 0.0f)};
        return t;
    }
    if (a.has("value_floats")) {
        std::vector<float> f = a.getFloats("value_floats");
        HostTensor t;
        t.info = TensorInfo(DataType::FLOAT, Shape{static_cast<int64_t>(f.size())});
        t.values.assign(f.begin(), f.end());
        return t;
    }
    if (a.has("value_int"))
        return intTensor({a.getInt("value_int", 0)}, {});
    if (a.has("value_ints")) {
        Ints v = a.getInts("value_ints");
        return intTensor(v, {static_cast<int64_t>(v.size())});
    }
    if (a.has("sparse_value"))
        node.unsupported("attribute 'sparse_value'");
    node.unsupported("a Constant without a value attribute (value_string(s) included)");
}

template <typename Ctx> HostTensor constantOfShapeValue(const Ctx& ctx) {
    Ints shape = staticInts(ctx, 0, "shape");
    HostTensor fill;
    if (ctx.attrs().has("value")) {
        fill = ctx.attrs().getTensor("value");
        if (fill.values.size() != 1)
            ctx.invalid("value must hold one element");
    } else {
        fill.info = TensorInfo(DataType::FLOAT, Shape{});
        fill.values = {0.0};
    }
    HostTensor t;
    t.info = TensorInfo(fill.info.dataType(), Shape(shape.begin(), shape.end()));
    t.values.assign(static_cast<std::size_t>(t.info.nelms()), fill.values[0]);
    return t;
}

// --- Cast -----------------------------------------------------------------------------------

template <typename Ctx> DataType castTarget(const Ctx& ctx) {
    int64_t to = ctx.attrs().getInt("to", 0);
    // ONNX TensorProto element types.
    switch (to) {
    case 1:
        return DataType::FLOAT;
    case 2:
        return DataType::UINT8;
    case 3:
        return DataType::INT8;
    case 4:
        return DataType::UINT16;
    case 5:
        return DataType::INT16;
    case 6:
        return DataType::INT32;
    case 7:
        return DataType::INT64;
    case 9:
        return DataType::BOOL;
    case 10:
        return DataType::FLOAT16;
    case 12:
        return DataType::UINT32;
    default:
        ctx.unsupported("a cast to ONNX element type " + std::to_string(to));
    }
}

void inferCast(ShapeContext& ctx) {
    ctx.setOutputInfo(0, TensorInfo(castTarget(ctx), ctx.inputInfo(0).shape()));
}

void castForward(LoweringContext& ctx) {
    poplar::Tensor in = ctx.input(0);
    poplar::Type to = ctx.deviceType(castTarget(ctx));
    ctx.setOutput(
        0, in.elementType() == to ? in : popops::cast(ctx.graph(), in, to, ctx.prog(), ctx.di()));
}

void castGrad(GradContext& ctx) {
    if (!ctx.needsInputGrad(0))
        return;
    poplar::Type back = ctx.deviceType(ctx.inputInfo(0).dataType());
    poplar::Tensor g = ctx.outputGrad(0);
    ctx.addInputGrad(0, g.elementType() == back
                            ? g
                            : popops::cast(ctx.graph(), g, back, ctx.prog(), ctx.di("grad")));
}

// --- Where ----------------------------------------------------------------------------------

void inferWhere(ShapeContext& ctx) {
    Shape s = broadcastShapes(ctx, ctx.inputInfo(0).shape(), ctx.inputInfo(1).shape());
    s = broadcastShapes(ctx, s, ctx.inputInfo(2).shape());
    ctx.setOutputInfo(0, TensorInfo(ctx.inputInfo(1).dataType(), s));
}

std::vector<HostTensor> whereFold(ShapeContext& ctx) {
    inferWhere(ctx);
    const Shape& out = ctx.outputInfos().at(0).shape();
    HostTensor c = hostBroadcast(ctx.constant(0), out);
    HostTensor x = hostBroadcast(ctx.constant(1), out);
    HostTensor y = hostBroadcast(ctx.constant(2), out);
    for (std::size_t i = 0; i < x.values.size(); ++i)
        if (c.values[i] == 0.0)
            x.values[i] = y.values[i];
    return {x};
}

void whereForward(LoweringContext& ctx) {
    ctx.setOutput(0, popops::map(ctx.graph(), popops::expr::TernaryOpType::SELECT, ctx.input(1),
                                 ctx.input(2), ctx.input(0), ctx.prog(), ctx.di()));
}

void whereGrad(GradContext& ctx) {
    poplar::Tensor g = ctx.outputGrad(0);
    poplar::Tensor zero = ctx.scalar(g.elementType(), 0.0);
    poplar::Tensor cond = ctx.input(0);
    if (ctx.needsInputGrad(1))
        ctx.addInputGrad(1, popops::map(ctx.graph(), popops::expr::TernaryOpType::SELECT, g, zero,
                                        cond, ctx.prog(), ctx.di("gradX")));
    if (ctx.needsInputGrad(2))
        ctx.addInputGrad(2, popops::map(ctx.graph(), popops::expr::TernaryOpType::SELECT, zero, g,
                                        cond, ctx.prog(), ctx.di("gradY")));
}

} // namespace

void registerValueOps(OpLoweringRegistry& registry) {
    registry.add(entry(
        "Shape", 1, [](ShapeContext& ctx) { ctx.setOutputInfo(0, shapeValue(ctx).info); },
        [](ShapeContext& ctx) { return std::vector<HostTensor>{shapeValue(ctx)}; },
        [](LoweringContext& ctx) {
            Ints v = shapeValues(ctx);
            ctx.setOutput(0, deviceConstant(ctx, intTensor(v, {static_cast<int64_t>(v.size())})));
        },
        GradFn()));
    registry.add(entry(
        "Size", 1, [](ShapeContext& ctx) { ctx.setOutputInfo(0, sizeValue(ctx).info); },
        [](ShapeContext& ctx) { return std::vector<HostTensor>{sizeValue(ctx)}; },
        [](LoweringContext& ctx) {
            ctx.setOutput(0, deviceConstant(ctx, intTensor({ctx.inputInfo(0).nelms()}, {})));
        },
        GradFn()));
    registry.add(entry(
        "Constant", 1, [](ShapeContext& ctx) { ctx.setOutputInfo(0, constantValue(ctx).info); },
        [](ShapeContext& ctx) { return std::vector<HostTensor>{constantValue(ctx)}; },
        [](LoweringContext& ctx) { ctx.setOutput(0, deviceConstant(ctx, constantValue(ctx))); },
        GradFn()));
    registry.add(entry(
        "ConstantOfShape", 9,
        [](ShapeContext& ctx) { ctx.setOutputInfo(0, constantOfShapeValue(ctx).info); },
        [](ShapeContext& ctx) { return std::vector<HostTensor>{constantOfShapeValue(ctx)}; },
        [](LoweringContext& ctx) {
            ctx.setOutput(0, deviceConstant(ctx, constantOfShapeValue(ctx)));
        },
        GradFn()));
    registry.add(entry(
        "Cast", 1, inferCast,
        [](ShapeContext& ctx) {
            return std::vector<HostTensor>{hostCast(ctx.constant(0), castTarget(ctx))};
        },
        castForward, castGrad));
    registry.add(entry("Where", 9, inferWhere, whereFold, whereForward, whereGrad));
}

} // namespace views
} // namespace popart
