#include "ops/ViewParams.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <popart/error.hpp>

namespace popart {
namespace views {

namespace {

int64_t numElements(const Shape& shape) {
    int64_t n = 1;
    for (int64_t d : shape)
        n *= d;
    return n;
}

/// Row-major strides of `shape`.
Ints stridesOf(const Shape& shape) {
    Ints strides(shape.size(), 1);
    for (std::size_t d = shape.size(); d-- > 1;)
        strides[d - 1] = strides[d] * shape[d];
    return strides;
}

/// A host tensor of `shape` whose element at each index is `source(index)` (a flat index into
/// `in`, or -1 for `fill`).
HostTensor mapElements(const HostTensor& in, const Shape& shape,
                       const std::function<int64_t(const Ints&)>& source, double fill = 0.0) {
    HostTensor out;
    out.info = TensorInfo(in.info.dataType(), shape);
    int64_t n = numElements(shape);
    out.values.resize(static_cast<std::size_t>(n));
    Ints index(shape.size(), 0);
    for (int64_t flat = 0; flat < n; ++flat) {
        int64_t from = source(index);
        out.values[static_cast<std::size_t>(flat)] =
            from < 0 ? fill : in.values.at(static_cast<std::size_t>(from));
        for (std::size_t d = shape.size(); d-- > 0;) {
            if (++index[d] < shape[d])
                break;
            index[d] = 0;
        }
    }
    return out;
}

} // namespace

int64_t normaliseAxis(const NodeView& node, int64_t axis, int64_t rank, const char* what) {
    if (axis < -rank || axis >= rank)
        node.invalid(std::string(what) + " " + std::to_string(axis) + " is out of range for rank " +
                     std::to_string(rank));
    return axis < 0 ? axis + rank : axis;
}

Ints normaliseAxes(const NodeView& node, const Ints& axes, int64_t rank, const char* what) {
    Ints out;
    for (int64_t a : axes)
        out.push_back(normaliseAxis(node, a, rank, what));
    return out;
}

Shape reshapeTarget(const NodeView& node, const Shape& in, const Ints& shape, bool allowZero) {
    Shape out(shape.begin(), shape.end());
    int64_t known = 1;
    int inferred = -1;
    for (std::size_t d = 0; d < out.size(); ++d) {
        if (out[d] == 0 && !allowZero) {
            if (d >= in.size())
                node.invalid("shape has a 0 beyond the input's rank");
            out[d] = in[d];
        }
        if (out[d] == -1) {
            if (inferred >= 0)
                node.invalid("shape has more than one -1");
            inferred = static_cast<int>(d);
        } else if (out[d] < 0) {
            node.invalid("shape has a negative dimension");
        } else {
            known *= out[d];
        }
    }
    int64_t total = numElements(in);
    if (inferred >= 0) {
        if (known == 0 || total % known != 0)
            node.invalid("shape's -1 cannot be inferred");
        out[static_cast<std::size_t>(inferred)] = total / known;
    } else if (known != total) {
        node.invalid("shape holds " + std::to_string(known) + " elements, the input " +
                     std::to_string(total));
    }
    return out;
}

std::vector<DimSlice> sliceRanges(const NodeView& node, const Shape& in, const Ints& starts,
                                  const Ints& ends, const Ints& axesIn, const Ints& stepsIn) {
    int64_t rank = static_cast<int64_t>(in.size());
    Ints axes = axesIn;
    if (axes.empty())
        for (std::size_t i = 0; i < starts.size(); ++i)
            axes.push_back(static_cast<int64_t>(i));
    axes = normaliseAxes(node, axes, rank, "axis");
    Ints steps = stepsIn.empty() ? Ints(starts.size(), 1) : stepsIn;
    if (ends.size() != starts.size() || axes.size() != starts.size() ||
        steps.size() != starts.size())
        node.invalid("starts, ends, axes and steps differ in length");

    std::vector<DimSlice> ranges(in.size());
    for (std::size_t d = 0; d < in.size(); ++d)
        ranges[d] = DimSlice{0, 1, in[d]};
    for (std::size_t k = 0; k < starts.size(); ++k) {
        int64_t dim = in[static_cast<std::size_t>(axes[k])];
        int64_t step = steps[k];
        if (step == 0)
            node.invalid("a step is 0");
        // ONNX: negative starts/ends count from the end; then clamp to [0, dim] for positive
        // steps and [-1, dim - 1] for negative ones.
        int64_t start = starts[k] < 0 ? starts[k] + dim : starts[k];
        int64_t end = ends[k] < 0 ? ends[k] + dim : ends[k];
        if (step > 0) {
            start = std::clamp<int64_t>(start, 0, dim);
            end = std::clamp<int64_t>(end, 0, dim);
        } else {
            start = std::clamp<int64_t>(start, -1, dim - 1);
            end = std::clamp<int64_t>(end, -1, dim - 1);
        }
        int64_t size =
            step > 0 ? (end - start + step - 1) / step : (start - end - step - 1) / -step;
        ranges[static_cast<std::size_t>(axes[k])] =
            DimSlice{start, step, std::max<int64_t>(size, 0)};
    }
    return ranges;
}

Shape broadcastShapes(const NodeView& node, const Shape& a, const Shape& b) {
    std::size_t rank = std::max(a.size(), b.size());
    Shape out(rank, 1);
    for (std::size_t i = 0; i < rank; ++i) {
        int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
        int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
        if (da != db && da != 1 && db != 1)
            node.invalid("shapes do not broadcast");
        out[i] = da == 1 ? db : da;
    }
    return out;
}

int64_t padSource(const std::string& mode, int64_t q, int64_t n) {
    if (mode == "edge" || n == 1)
        return q < 0 ? 0 : (q >= n ? n - 1 : q);
    int64_t period = 2 * (n - 1);
    int64_t r = ((q % period) + period) % period;
    return r < n ? r : period - r;
}

HostTensor hostReshape(const HostTensor& in, const Shape& shape) {
    HostTensor out = in;
    out.info = TensorInfo(in.info.dataType(), shape);
    return out;
}

HostTensor hostTranspose(const HostTensor& in, const Ints& perm) {
    const Shape& shape = in.info.shape();
    Shape outShape;
    for (int64_t p : perm)
        outShape.push_back(shape[static_cast<std::size_t>(p)]);
    Ints strides = stridesOf(shape);
    return mapElements(in, outShape, [&](const Ints& idx) {
        int64_t flat = 0;
        for (std::size_t d = 0; d < perm.size(); ++d)
            flat += idx[d] * strides[static_cast<std::size_t>(perm[d])];
        return flat;
    });
}

HostTensor hostSlice(const HostTensor& in, const std::vector<DimSlice>& ranges) {
    Shape outShape;
    for (const DimSlice& r : ranges)
        outShape.push_back(r.size);
    Ints strides = stridesOf(in.info.shape());
    return mapElements(in, outShape, [&](const Ints& idx) {
        int64_t flat = 0;
        for (std::size_t d = 0; d < ranges.size(); ++d)
            flat += (ranges[d].begin + idx[d] * ranges[d].step) * strides[d];
        return flat;
    });
}

HostTensor hostConcat(const std::vector<const HostTensor*>& ins, int64_t axis) {
    Shape outShape = ins.at(0)->info.shape();
    std::size_t a = static_cast<std::size_t>(axis);
    outShape[a] = 0;
    for (const HostTensor* t : ins)
        outShape[a] += t->info.shape()[a];
    // Concatenate with one pass per input: copy its rows (outer x its axis block) in order.
    HostTensor out;
    out.info = TensorInfo(ins[0]->info.dataType(), outShape);
    int64_t outer = 1;
    for (std::size_t d = 0; d < a; ++d)
        outer *= outShape[d];
    for (int64_t o = 0; o < outer; ++o)
        for (const HostTensor* t : ins) {
            int64_t block = t->info.nelms() / std::max<int64_t>(outer, 1);
            auto from = t->values.begin() + o * block;
            out.values.insert(out.values.end(), from, from + block);
        }
    return out;
}

HostTensor hostGather(const HostTensor& data, const HostTensor& indices, int64_t axis) {
    const Shape& shape = data.info.shape();
    std::size_t a = static_cast<std::size_t>(axis);
    Shape outShape(shape.begin(), shape.begin() + static_cast<std::ptrdiff_t>(a));
    const Shape& ishape = indices.info.shape();
    outShape.insert(outShape.end(), ishape.begin(), ishape.end());
    outShape.insert(outShape.end(), shape.begin() + static_cast<std::ptrdiff_t>(a) + 1,
                    shape.end());
    Ints strides = stridesOf(shape);
    Ints istrides = stridesOf(ishape);
    return mapElements(data, outShape, [&](const Ints& idx) {
        int64_t flatIndex = 0;
        for (std::size_t k = 0; k < ishape.size(); ++k)
            flatIndex += idx[a + k] * istrides[k];
        int64_t i = static_cast<int64_t>(indices.values.at(static_cast<std::size_t>(flatIndex)));
        if (i < 0)
            i += shape[a];
        if (i < 0 || i >= shape[a])
            throw error("Gather: index " + std::to_string(i) + " is out of range");
        int64_t flat = i * strides[a];
        for (std::size_t d = 0; d < a; ++d)
            flat += idx[d] * strides[d];
        for (std::size_t d = a + 1; d < shape.size(); ++d)
            flat += idx[d - 1 + ishape.size()] * strides[d];
        return flat;
    });
}

HostTensor hostBroadcast(const HostTensor& in, const Shape& shape) {
    const Shape& inShape = in.info.shape();
    std::size_t lead = shape.size() - inShape.size();
    Ints strides = stridesOf(inShape);
    return mapElements(in, shape, [&](const Ints& idx) {
        int64_t flat = 0;
        for (std::size_t d = 0; d < inShape.size(); ++d)
            flat += (inShape[d] == 1 ? 0 : idx[d + lead]) * strides[d];
        return flat;
    });
}

HostTensor hostTile(const HostTensor& in, const Ints& repeats) {
    const Shape& inShape = in.info.shape();
    Shape outShape;
    for (std::size_t d = 0; d < inShape.size(); ++d)
        outShape.push_back(inShape[d] * repeats[d]);
    Ints strides = stridesOf(inShape);
    return mapElements(in, outShape, [&](const Ints& idx) {
        int64_t flat = 0;
        for (std::size_t d = 0; d < inShape.size(); ++d)
            flat += (idx[d] % inShape[d]) * strides[d];
        return flat;
    });
}

HostTensor hostPad(const HostTensor& in, const PadAmounts& pads, const std::string& mode,
                   double value) {
    const Shape& inShape = in.info.shape();
    Shape outShape;
    for (std::size_t d = 0; d < inShape.size(); ++d)
        outShape.push_back(inShape[d] + pads.begin[d] + pads.end[d]);
    Ints strides = stridesOf(inShape);
    return mapElements(
        in, outShape,
        [&](const Ints& idx) -> int64_t {
            int64_t flat = 0;
            for (std::size_t d = 0; d < inShape.size(); ++d) {
                int64_t i = idx[d] - pads.begin[d];
                int64_t n = inShape[d];
                if (i < 0 || i >= n) {
                    if (mode == "constant")
                        return -1;
                    i = padSource(mode, i, n);
                }
                flat += i * strides[d];
            }
            return flat;
        },
        value);
}

HostTensor hostCast(const HostTensor& in, DataType type) {
    HostTensor out = in;
    out.info = TensorInfo(type, in.info.shape());
    for (double& v : out.values) {
        switch (type) {
        case DataType::BOOL:
            v = v != 0.0 ? 1.0 : 0.0;
            break;
        case DataType::FLOAT:
            v = static_cast<float>(v);
            break;
        case DataType::FLOAT16:
        case DataType::DOUBLE:
            break;
        default:
            v = std::isfinite(v) ? std::trunc(v) : 0.0;
            break;
        }
    }
    return out;
}

} // namespace views
} // namespace popart
