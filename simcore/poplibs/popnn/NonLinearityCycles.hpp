#pragma once
// Cycle estimates of popnn's NonLinearity1D and NonLinearityGrad1D vertices, following PopLibs'
// NonLinearitySupervisor and NonLinearityGradSupervisor estimators (lib/popnn/
// PopnnCycleEstimators.cpp, getNonLinearityOpCycles in lib/popnn/PerformanceEstimation.hpp).
// PopLibs splits the vectors over the 6 workers and charges 9 supervisor cycles + 6 x the
// worker's cycles; the simulator adds one vertex per worker chunk (see addElementWiseVertices),
// each estimated at the worker figure for its own elements.

#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <popnn/NonLinearity.hpp>

namespace tilescope::poplibs::cycles {

/// Cycles of one non-linearity instruction on a 64-bit vector (PopLibs' figures from the
/// architecture manual's worst cases): RELU 1; SIGMOID 5 FLOAT, 2 HALF; TANH 5 FLOAT, 1 HALF;
/// GELU 10 FLOAT, 5 HALF (PopLibs' placeholders).
inline std::uint64_t nonLinearityOpCycles(popnn::NonLinearityType nl, const poplar::Type& type) {
    const bool isFloat = type == poplar::FLOAT;
    switch (nl) {
    case popnn::NonLinearityType::RELU:
        return 1;
    case popnn::NonLinearityType::SIGMOID:
        return isFloat ? 5 : 2;
    case popnn::NonLinearityType::TANH:
        return isFloat ? 5 : 1;
    case popnn::NonLinearityType::GELU:
    case popnn::NonLinearityType::SOFTMAX: // not a NonLinearity1D vertex; costed as GELU
        return isFloat ? 10 : 5;
    }
    return isFloat ? 10 : 5;
}

/// Thread cycles of one worker applying `nl` in place to `elements`: 20 cycles of set-up, a
/// pipelined loop of 2 ops per vector (warm-up 2 + op, drain 1 + op), and the remainder (FLOAT:
/// 3 + (2 + op) for an odd element; HALF: 4 + (2 + op) for a pair + (3 + op) for a last one).
inline std::uint64_t nonLinearityWorkerCycles(const poplar::Target& target,
                                              popnn::NonLinearityType nl, const poplar::Type& type,
                                              std::uint64_t elements) {
    const std::uint64_t width = target.getVectorWidth(type);
    const std::uint64_t vectors = elements / width, remainder = elements % width;
    const std::uint64_t op = nonLinearityOpCycles(nl, type);
    std::uint64_t cycles = 2 + 5 + 2 + 2 + 2 + 5 + 2;
    if (vectors > 0)
        cycles += 2 + op + (vectors - 1) * 2 * op + 1 + op;
    if (type == poplar::FLOAT)
        cycles += 3 + ((remainder & 1) ? 2 + op : 0);
    else
        cycles += 2 + 1 + ((remainder & 2) ? 2 + op : 0) + 1 + ((remainder & 1) ? 3 + op : 0);
    return cycles;
}

/// Thread cycles of one worker computing the input gradient of a non-linearity over `elements`:
/// 25 cycles of set-up, 4 + 3 per further vector + 1, and the remainder checks (FLOAT 4 + 4 for
/// an odd element; HALF 6 + 5 for a pair + 7 for a last one).
inline std::uint64_t nonLinearityGradWorkerCycles(const poplar::Target& target,
                                                  const poplar::Type& type,
                                                  std::uint64_t elements) {
    const std::uint64_t width = target.getVectorWidth(type);
    const std::uint64_t vectors = elements / width, remainder = elements % width;
    std::uint64_t cycles = 8 + 5 + 2 + 3 + 3 + 3 + 1;
    if (vectors > 0)
        cycles += 4 + (vectors - 1) * 3 + 1;
    if (type == poplar::FLOAT)
        cycles += 2 + 2 + (remainder ? 4 : 0);
    else
        cycles += 2 + 2 + ((remainder & 2) ? 5 : 0) + 2 + ((remainder & 1) ? 7 : 0);
    return cycles;
}

} // namespace tilescope::poplibs::cycles
