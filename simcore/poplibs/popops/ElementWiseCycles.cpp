#include "popops/ElementWiseCycles.hpp"

namespace tilescope::poplibs::cycles {

namespace {

using U = popops::expr::UnaryOpType;
using B = popops::expr::BinaryOpType;

// Fixed worker cycles of each vertex (loading its state and pointers, splitting the work,
// exiting), and the supervisor cycles around the workers: the figures of PopLibs' UnaryOp1D,
// UnaryOp1DInPlace, BinaryOp1D and BinaryOp1DInPlace estimators (popopsCycleEstimators.cpp)
// and basicOpSupervisorOverhead (popops/PerformanceEstimation.cpp).
constexpr std::uint64_t kUnaryOp1DWorkerOverhead = 17;
constexpr std::uint64_t kUnaryOp1DExponentWorkerOverhead = 33;
constexpr std::uint64_t kUnaryOp1DInPlaceWorkerOverhead = 55;
constexpr std::uint64_t kBinaryOp1DFloatWorkerOverhead = 29;
constexpr std::uint64_t kBinaryOp1DOtherWorkerOverhead = 26;
constexpr std::uint64_t kBinaryOp1DInPlaceWorkerOverhead = 58;
constexpr std::uint64_t kBasicOpSupervisorOverhead = 11;
constexpr std::uint64_t kUnaryOpExtraSupervisorCycles = 9;
// Per-loop overheads added to a natural-vector loop: unary ops 4 (unaryOpInnerLoopCycles);
// binary ops 2 for FLOAT/HALF ADD, SUBTRACT and MULTIPLY, which have assembly codelets, and 5
// for the rest (binaryOpInnerLoopCycles).
constexpr unsigned kUnaryLoopOverhead = 4;
constexpr unsigned kBinaryAssemblyLoopOverhead = 2;
constexpr unsigned kBinaryLoopOverhead = 5;
// An operation and type PopLibs' tables do not list (INT RELU, ...) is costed as an element per
// loop at the cost of PopLibs' INT ADD: a modelled figure, not PopLibs'.
constexpr OpLoopInfo kUnlistedOp{7, false, 1};

std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) {
    return (a + b - 1) / b;
}

enum class T { Float, Half, Int, Bool, Other };
T kind(const poplar::Type& type) {
    if (type == poplar::FLOAT)
        return T::Float;
    if (type == poplar::HALF)
        return T::Half;
    if (type == poplar::INT)
        return T::Int;
    if (type == poplar::BOOL)
        return T::Bool;
    return T::Other;
}

/// {cyclesPerLoop, natural vector, unroll} for FLOAT, HALF and INT (0 cycles: not listed).
struct Row {
    OpLoopInfo f, h, i;
};

bool pick(const Row& row, T t, OpLoopInfo& info) {
    const OpLoopInfo& chosen = t == T::Float ? row.f : t == T::Half ? row.h : row.i;
    if (t == T::Other || t == T::Bool || chosen.cyclesPerLoop == 0)
        return false;
    info = chosen;
    return true;
}

// PopLibs' unaryOpPerfInfo and unaryOpInPlacePerfInfo (popopsCycleEstimators.hpp), for the
// operations of this subset.
bool unaryRow(U op, bool inPlace, Row& r) {
    switch (op) {
    case U::ABSOLUTE:
        r = inPlace ? Row{{1, true}, {1, true}, {2}} : Row{{1}, {1}, {2}};
        return true;
    case U::EXPONENT:
        r = {{6, false, 2}, {4, false, 4}, {}};
        return true;
    case U::LOGARITHM:
        r = inPlace ? Row{{14, false, 2}, {6, false, 4}, {}}
                    : Row{{12, false, 2}, {4, false, 4}, {}};
        return true;
    case U::NEGATE:
        r = inPlace ? Row{{3, false, 2}, {3, false, 4}, {2}}
                    : Row{{2, false, 2}, {2, false, 4}, {2}};
        return true;
    case U::RELU:
        r = inPlace ? Row{{2, false, 2}, {2, false, 4}, {}} : Row{{3, false, 2}, {3, false, 4}, {}};
        return true;
    case U::SIGMOID:
        r = inPlace ? Row{{10, false, 2}, {4, false, 4}, {}}
                    : Row{{12, false, 2}, {6, false, 4}, {}};
        return true;
    case U::SQRT:
        r = {{10, false, 2}, {23, false, 4}, {110}};
        return true;
    case U::SQUARE:
        r = {{2, false, 2}, {2, false, 4}, {1, true}};
        return true;
    case U::TANH:
        r = inPlace ? Row{{10, false, 2}, {2, false, 4}, {}}
                    : Row{{12, false, 2}, {4, false, 4}, {}};
        return true;
    case U::CEIL:
    case U::FLOOR:
    case U::ROUND:
        r = {{2, true}, {2, true}, {}};
        return true;
    case U::COS:
    case U::SIN:
        r = {{2300}, {26, false, 1}, {}};
        return true;
    case U::INVERSE:
        r = {{6, false, 2}, {15, false, 4}, {}};
        return true;
    case U::RSQRT:
        r = {{8, false, 2}, {19, false, 4}, {}};
        return true;
    case U::SIGNUM:
        r = {{5, true}, {5, true}, {5}};
        return true;
    case U::LOGICAL_NOT:
        return false; // BOOL only, handled by the caller
    }
    return false;
}

// PopLibs' binaryOpPerfInfo (popopsCycleEstimators.hpp); binaryOpInPlacePerfInfo has the same
// figures for every operation and type of this subset.
bool binaryRow(B op, Row& r) {
    switch (op) {
    case B::ADD:
    case B::SUBTRACT:
    case B::MULTIPLY:
        r = {{1, true}, {1, true}, {7, false, 1}};
        return true;
    case B::DIVIDE:
        r = {{10, false, 2}, {21, false, 4}, {277, false, 1}};
        return true;
    case B::MAXIMUM:
    case B::MINIMUM:
        r = {{4, false, 2}, {4, false, 4}, {7, false, 1}};
        return true;
    case B::POWER:
        r = {{312, false, 1}, {325, false, 1}, {}};
        return true;
    case B::REMAINDER:
        r = {{133, false, 2}, {300, false, 4}, {292, false, 1}};
        return true;
    case B::EQUAL:
    case B::GREATER_THAN:
    case B::LESS_THAN:
        r = {{14, false, 4}, {9, false, 4}, {22, false, 4}};
        return true;
    case B::GREATER_THAN_EQUAL:
    case B::LESS_THAN_EQUAL:
        r = {{14, false, 4}, {9, false, 4}, {26, false, 4}};
        return true;
    case B::NOT_EQUAL:
        r = {{20, false, 4}, {11, false, 4}, {22, false, 4}};
        return true;
    case B::LOGICAL_AND:
    case B::LOGICAL_OR:
        return false; // BOOL only, handled by the caller
    }
    return false;
}

// PopLibs' broadcastOpPerfInfo (popopsCycleEstimators.hpp, SDK 2.x), the loops of the
// BroadcastScalar vertices; broadcastOpInPlacePerfInfo lists the same figures for every
// operation and type of this subset.
bool broadcastRow(B op, Row& r) {
    switch (op) {
    case B::ADD:
    case B::SUBTRACT:
    case B::MULTIPLY:
        r = {{1, true}, {1, true}, {6, false, 1}};
        return true;
    case B::DIVIDE:
        r = {{8, false, 2}, {21, false, 4}, {277, false, 1}};
        return true;
    case B::MAXIMUM:
    case B::MINIMUM:
        r = {{3, false, 2}, {3, false, 4}, {6, false, 1}};
        return true;
    case B::POWER:
        r = {{312, false, 1}, {325, false, 1}, {}};
        return true;
    case B::REMAINDER:
        r = {{93, false, 2}, {225, false, 4}, {280, false, 1}};
        return true;
    case B::EQUAL:
    case B::GREATER_THAN:
    case B::LESS_THAN:
        r = {{12, false, 4}, {8, false, 4}, {16, false, 4}};
        return true;
    case B::GREATER_THAN_EQUAL:
    case B::LESS_THAN_EQUAL:
        r = {{12, false, 4}, {8, false, 4}, {20, false, 4}};
        return true;
    case B::NOT_EQUAL:
        r = {{18, false, 4}, {10, false, 4}, {16, false, 4}};
        return true;
    case B::LOGICAL_AND:
    case B::LOGICAL_OR:
        return false; // BOOL only, handled by the caller
    }
    return false;
}

/// The BOOL rows of broadcastOpPerfInfo (EQUAL and NOT_EQUAL 25, LOGICAL_AND/OR 12, 4 per loop).
bool boolBroadcast(B op, OpLoopInfo& info) {
    switch (op) {
    case B::EQUAL:
    case B::NOT_EQUAL:
        info = {25, false, 4};
        return true;
    case B::LOGICAL_AND:
    case B::LOGICAL_OR:
        info = {12, false, 4};
        return true;
    default:
        return false;
    }
}

/// PopLibs' BOOL rows of the binary table (EQUAL 6, NOT_EQUAL 5, LOGICAL_AND/OR 5, 4 per loop).
bool boolBinary(B op, OpLoopInfo& info) {
    switch (op) {
    case B::EQUAL:
        info = {6, false, 4};
        return true;
    case B::NOT_EQUAL:
    case B::LOGICAL_AND:
    case B::LOGICAL_OR:
        info = {5, false, 4};
        return true;
    case B::GREATER_THAN:
        info = {31, false, 4};
        return true;
    case B::GREATER_THAN_EQUAL:
    case B::LESS_THAN:
    case B::LESS_THAN_EQUAL:
        info = {28, false, 4};
        return true;
    default:
        return false;
    }
}

/// PopLibs' basicOpLoopCycles: cyclesPerVector * ceil-ish(n / vectorSize), evaluated as PopLibs
/// writes it, (cycles * (n + vectorSize - 1)) / vectorSize.
std::uint64_t basicOpLoopCycles(std::uint64_t elements, std::uint64_t vectorSize,
                                std::uint64_t cyclesPerVector) {
    return cyclesPerVector * (elements + vectorSize - 1) / vectorSize;
}

std::uint64_t unaryInnerLoop(const poplar::Target& target, const poplar::Type& type,
                             const OpLoopInfo& info, std::uint64_t elements) {
    if (!info.naturalVectorWidth && info.unroll > 0)
        return ceilDiv(elements, info.unroll) * info.cyclesPerLoop;
    const std::uint64_t width = info.naturalVectorWidth ? target.getVectorWidth(type) : 1;
    return basicOpLoopCycles(elements, width, info.cyclesPerLoop + kUnaryLoopOverhead);
}

std::uint64_t binaryInnerLoop(const poplar::Target& target, B op, const poplar::Type& type,
                              const OpLoopInfo& info, std::uint64_t elements) {
    if (!info.naturalVectorWidth)
        return ceilDiv(elements, info.unroll > 0 ? info.unroll : 1) * info.cyclesPerLoop;
    const bool assembly = (type == poplar::FLOAT || type == poplar::HALF) &&
                          (op == B::ADD || op == B::SUBTRACT || op == B::MULTIPLY);
    const std::uint64_t perLoop =
        info.cyclesPerLoop + (assembly ? kBinaryAssemblyLoopOverhead : kBinaryLoopOverhead);
    return ceilDiv(elements, target.getVectorWidth(type)) * perLoop;
}

} // namespace

bool unaryOpLoopInfo(U op, const poplar::Type& type, bool inPlace, OpLoopInfo& info) {
    if (op == U::LOGICAL_NOT) {
        if (type != poplar::BOOL)
            return false;
        info = {17, inPlace};
        return true;
    }
    Row row;
    return unaryRow(op, inPlace, row) && pick(row, kind(type), info);
}

bool binaryOpLoopInfo(B op, const poplar::Type& type, OpLoopInfo& info) {
    if (type == poplar::BOOL)
        return boolBinary(op, info);
    Row row;
    return binaryRow(op, row) && pick(row, kind(type), info);
}

std::uint64_t unaryOp1DWorkerCycles(const poplar::Target& target, U op, const poplar::Type& type,
                                    bool inPlace, std::uint64_t elements) {
    OpLoopInfo info;
    if (!unaryOpLoopInfo(op, type, inPlace, info))
        info = kUnlistedOp;
    const std::uint64_t overhead = inPlace             ? kUnaryOp1DInPlaceWorkerOverhead
                                   : op == U::EXPONENT ? kUnaryOp1DExponentWorkerOverhead
                                                       : kUnaryOp1DWorkerOverhead;
    return overhead + unaryInnerLoop(target, type, info, elements);
}

std::uint64_t binaryOp1DWorkerCycles(const poplar::Target& target, B op, const poplar::Type& type,
                                     bool inPlace, std::uint64_t elements) {
    OpLoopInfo info;
    if (!binaryOpLoopInfo(op, type, info))
        info = kUnlistedOp;
    const std::uint64_t overhead = inPlace                 ? kBinaryOp1DInPlaceWorkerOverhead
                                   : type == poplar::FLOAT ? kBinaryOp1DFloatWorkerOverhead
                                                           : kBinaryOp1DOtherWorkerOverhead;
    return overhead + binaryInnerLoop(target, op, type, info, elements);
}

namespace {

/// The loop cycles of PopLibs' broadcast-scalar estimators over one run of `elements`
/// (broadcastArithmeticSupervisorCycleEstimate and broadcastArithmeticCycleEstimate share it):
/// per natural vector the table's cycles plus 1 for the assembly codelets, 4 for the C++ ones
/// (`hasExternalCodelet(op, type) ? 1 : 4`); otherwise per unrolled group.
std::uint64_t broadcastLoopCycles(const poplar::Target& target, B op, const poplar::Type& type,
                                  std::uint64_t elements) {
    constexpr unsigned kBroadcastAssemblyLoopOverhead = 1, kBroadcastLoopOverhead = 4;
    OpLoopInfo info;
    Row row;
    const bool listed = type == poplar::BOOL ? boolBroadcast(op, info)
                                             : broadcastRow(op, row) && pick(row, kind(type), info);
    if (!listed)
        info = kUnlistedOp;
    std::uint64_t loops = 0;
    if (info.naturalVectorWidth) {
        const bool assembly = (type == poplar::FLOAT || type == poplar::HALF) &&
                              (op == B::ADD || op == B::SUBTRACT || op == B::MULTIPLY);
        info.cyclesPerLoop += assembly ? kBroadcastAssemblyLoopOverhead : kBroadcastLoopOverhead;
        loops = ceilDiv(elements, target.getVectorWidth(type));
    } else {
        loops = ceilDiv(elements, info.unroll > 0 ? info.unroll : 1);
    }
    return loops * info.cyclesPerLoop;
}

} // namespace

std::uint64_t broadcastScalar1DWorkerCycles(const poplar::Target& target, B op,
                                            const poplar::Type& type, bool /*inPlace*/,
                                            std::uint64_t elements) {
    // broadcastArithmeticSupervisorCycleEstimate: 20 cycles before the loop.
    constexpr std::uint64_t kBroadcastScalarWorkerOverhead = 20;
    return kBroadcastScalarWorkerOverhead + broadcastLoopCycles(target, op, type, elements);
}

std::uint64_t broadcastScalar2DWorkerCycles(const poplar::Target& target, B op,
                                            const poplar::Type& type, bool /*inPlace*/,
                                            const std::vector<std::uint64_t>& regions) {
    // PopLibs' BroadcastScalar2DData(InPlace) estimator (popopsCycleEstimators.cpp, SDK 2.x,
    // broadcastArithmeticCycleEstimate): 20 cycles of vertex overhead, and per region its loop
    // plus 28 cycles of region set-up.
    constexpr std::uint64_t kBroadcastScalar2DOverhead = 20;
    constexpr std::uint64_t kBroadcastScalar2DPerRegion = 28;
    std::uint64_t cycles = kBroadcastScalar2DOverhead;
    for (std::uint64_t n : regions)
        cycles += broadcastLoopCycles(target, op, type, n) + kBroadcastScalar2DPerRegion;
    return cycles;
}

std::uint64_t broadcastScalar1DVertexCycles(const poplar::Target& target, B op,
                                            const poplar::Type& type, bool inPlace,
                                            std::uint64_t elements) {
    const unsigned workers = target.getNumWorkerContexts();
    return workers * broadcastScalar1DWorkerCycles(target, op, type, inPlace,
                                                   ceilDiv(elements, workers)) +
           kBasicOpSupervisorOverhead;
}

std::uint64_t unaryOp1DVertexCycles(const poplar::Target& target, U op, const poplar::Type& type,
                                    bool inPlace, std::uint64_t elements) {
    const unsigned workers = target.getNumWorkerContexts();
    return workers * unaryOp1DWorkerCycles(target, op, type, inPlace, ceilDiv(elements, workers)) +
           kUnaryOpExtraSupervisorCycles + kBasicOpSupervisorOverhead;
}

std::uint64_t binaryOp1DVertexCycles(const poplar::Target& target, B op, const poplar::Type& type,
                                     bool inPlace, std::uint64_t elements) {
    const unsigned workers = target.getNumWorkerContexts();
    return workers * binaryOp1DWorkerCycles(target, op, type, inPlace, ceilDiv(elements, workers)) +
           kBasicOpSupervisorOverhead;
}

std::uint64_t mapExprWorkerCycles(const poplar::Target& target, const poplar::Type& type,
                                  unsigned inputs, unsigned fusedOps, std::uint64_t elements) {
    // executeCodelet: 20 for a MultiVertex (13 for a single-worker vertex, which PopLibs uses
    // only when a tile holds several regions; the simulator splits every tile as a MultiVertex).
    constexpr std::uint64_t kMultiVertexOverhead = 20;
    const std::uint64_t width = target.getVectorWidth(type);
    const std::uint64_t perInput = elements / width + elements % width;
    return ceilDiv(kMultiVertexOverhead, target.getNumWorkerContexts()) +
           std::uint64_t(inputs) * perInput * fusedOps;
}

std::uint64_t scaledAddWorkerCycles(const poplar::Target& target, const poplar::Type& type,
                                    std::uint64_t elements) {
    // Worker figures of getScaledArithmeticSupervisorCycleEstimate for equal data and delta
    // types, not memory-constrained: 3 cycles per vector in the inner loop.
    constexpr std::uint64_t kPrologue = 15, kLoopOverhead = 6, kCyclesPerVector = 3;
    constexpr std::uint64_t kRemainderChecks = 2 + 1, kExit = 1;
    const std::uint64_t width = target.getVectorWidth(type);
    const std::uint64_t vectors = elements / width, remainder = elements % width;
    std::uint64_t cycles = kPrologue + kRemainderChecks + kExit;
    if (vectors > 0)
        cycles += kLoopOverhead + kCyclesPerVector * (vectors - 1);
    if (remainder > 0) {
        if (type == poplar::FLOAT)
            cycles += 8; // the final float
        else
            cycles += 5 + (remainder >= 2 ? 7 : 0) + (remainder == 3 ? 6 : 0);
    }
    return cycles;
}

std::uint64_t ternaryOpWorkerCycles(const poplar::Target& target, bool clamp,
                                    const poplar::Type& type, std::uint64_t elements) {
    constexpr std::uint64_t kVertex = 5, kRegion = 6;
    constexpr std::uint64_t kSelectPerElement = 5; // ld, ld, ld, movz, st
    constexpr std::uint64_t kClampPerVector = 2, kClampIntPerElement = 7;
    if (!clamp)
        return kVertex + kRegion + kSelectPerElement * elements;
    if (type == poplar::FLOAT || type == poplar::HALF)
        return kVertex + kRegion +
               basicOpLoopCycles(elements, target.getVectorWidth(type), kClampPerVector);
    return kVertex + kRegion + kClampIntPerElement * elements;
}

} // namespace tilescope::poplibs::cycles
