// Comparison and logical ops: Equal Less Greater LessOrEqual GreaterOrEqual (BOOL results of
// numpy-broadcast operands), Not And Or Xor (BOOL operands). No gradients.
#include "ops/OpGroups.hpp"
#include "ops/OpHelpers.hpp"

namespace popart {

namespace {

using popops::expr::BinaryOpType;

double hostCompare(BinaryOpType op, double a, double b) {
    switch (op) {
    case BinaryOpType::EQUAL:
        return a == b;
    case BinaryOpType::LESS_THAN:
        return a < b;
    case BinaryOpType::GREATER_THAN:
        return a > b;
    case BinaryOpType::LESS_THAN_EQUAL:
        return a <= b;
    case BinaryOpType::GREATER_THAN_EQUAL:
        return a >= b;
    case BinaryOpType::LOGICAL_AND:
        return a != 0 && b != 0;
    case BinaryOpType::LOGICAL_OR:
        return a != 0 || b != 0;
    case BinaryOpType::NOT_EQUAL:
        return (a != 0) != (b != 0);
    default:
        return 0;
    }
}

void compare(OpLoweringRegistry& r, const std::string& type, BinaryOpType op, int minOpset = 1) {
    OpLowering entry = onnxOp(
        type,
        [op](LoweringContext& c) {
            poplar::Tensor a = c.input(0), b = c.input(1);
            // Mixed integer types (INT64 inputs are INT on the device) compare in the first's type.
            b = castTo(c, b, a.elementType());
            c.setOutput(0, popops::map(c.graph(), op, a, b, c.prog(), c.di()));
        },
        GradFn(), minOpset);
    entry.fold = [op](ShapeContext& c) {
        return std::vector<HostTensor>{
            hostElementWise(c, DataType::BOOL, [op](const std::vector<double>& v) {
                return hostCompare(op, v[0], v[1]);
            })};
    };
    r.add(entry);
}

} // namespace

void registerComparisonOps(OpLoweringRegistry& r) {
    compare(r, "Equal", BinaryOpType::EQUAL);
    compare(r, "Less", BinaryOpType::LESS_THAN);
    compare(r, "Greater", BinaryOpType::GREATER_THAN);
    compare(r, "LessOrEqual", BinaryOpType::LESS_THAN_EQUAL, 12);
    compare(r, "GreaterOrEqual", BinaryOpType::GREATER_THAN_EQUAL, 12);
    compare(r, "And", BinaryOpType::LOGICAL_AND);
    compare(r, "Or", BinaryOpType::LOGICAL_OR);
    // Xor of BOOLs is "not equal".
    compare(r, "Xor", BinaryOpType::NOT_EQUAL);
    OpLowering notOp = onnxOp("Not", [](LoweringContext& c) {
        c.setOutput(0, popops::map(c.graph(), popops::expr::UnaryOpType::LOGICAL_NOT, c.input(0),
                                   c.prog(), c.di()));
    });
    notOp.fold = [](ShapeContext& c) {
        return std::vector<HostTensor>{hostElementWise(
            c, DataType::BOOL, [](const std::vector<double>& v) { return double(v[0] == 0); })};
    };
    r.add(notOp);
}

} // namespace popart
