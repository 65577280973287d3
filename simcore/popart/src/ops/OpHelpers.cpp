#include "ops/OpHelpers.hpp"

#include <popops/Cast.hpp>

namespace popart {

poplar::Tensor mapExpr(LoweringContext& c, const pe::Expr& e, const std::vector<poplar::Tensor>& ts,
                       const std::string& name) {
    return popops::map(c.graph(), e, ts, c.prog(), c.di(name));
}

poplar::Tensor castTo(LoweringContext& c, const poplar::Tensor& t, const poplar::Type& type) {
    if (t.elementType() == type)
        return t;
    return popops::cast(c.graph(), t, type, c.prog(), c.di("cast"));
}

Shape broadcastShape(const NodeView& v, const Shape& a, const Shape& b) {
    const std::size_t rank = std::max(a.size(), b.size());
    Shape out(rank);
    for (std::size_t i = 0; i < rank; ++i) {
        const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
        const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
        if (da != db && da != 1 && db != 1)
            v.invalid("shapes do not broadcast (dimension " + std::to_string(i) + ": " +
                      std::to_string(da) + " and " + std::to_string(db) + ")");
        out[i] = da == 1 ? db : da;
    }
    return out;
}

HostTensor hostElementWise(const ShapeContext& c, DataType outType,
                           const std::function<double(const std::vector<double>&)>& f) {
    Shape shape;
    std::vector<const HostTensor*> ins;
    for (std::size_t i = 0; i < c.numInputs(); ++i) {
        if (!c.hasInput(i))
            continue;
        ins.push_back(&c.constant(i));
        shape = broadcastShape(c, shape, ins.back()->info.shape());
    }
    HostTensor out;
    out.info = TensorInfo(outType, shape);
    const int64_t n = out.info.nelms();
    out.values.resize(std::size_t(n));
    std::vector<double> args(ins.size());
    std::vector<int64_t> index(shape.size());
    for (int64_t flat = 0; flat < n; ++flat) {
        int64_t rest = flat;
        for (std::size_t d = shape.size(); d-- > 0;) {
            index[d] = rest % shape[d];
            rest /= shape[d];
        }
        for (std::size_t k = 0; k < ins.size(); ++k) {
            const Shape& s = ins[k]->info.shape();
            int64_t offset = 0;
            for (std::size_t d = 0; d < s.size(); ++d) {
                const int64_t i = s[d] == 1 ? 0 : index[d + shape.size() - s.size()];
                offset = offset * s[d] + i;
            }
            args[k] = ins[k]->values[std::size_t(offset)];
        }
        out.values[std::size_t(flat)] = f(args);
    }
    return out;
}

int64_t normaliseAxis(const NodeView& v, int64_t axis, int64_t rank) {
    const int64_t a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= std::max<int64_t>(rank, 1))
        v.invalid("axis " + std::to_string(axis) + " is out of range for rank " +
                  std::to_string(rank));
    return a;
}

bool isIntegral(DataType type) {
    return type != DataType::FLOAT && type != DataType::FLOAT16 && type != DataType::DOUBLE &&
           type != DataType::BFLOAT16;
}

OpLowering onnxOp(const std::string& opType, ForwardFn forward, GradFn grad, int minOpset,
                  int maxOpset) {
    OpLowering op;
    op.domain = "";
    op.opType = opType;
    op.forward = std::move(forward);
    op.grad = std::move(grad);
    op.minOpset = minOpset;
    op.maxOpset = maxOpset;
    return op;
}

} // namespace popart
