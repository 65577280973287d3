#pragma once
// Cycle estimates of popops' element-wise vertices (UnaryOp1D, UnaryOp1DInPlace, BinaryOp1D,
// BinaryOp1DInPlace), following PopLibs' own estimators (lib/popops/popopsCycleEstimators.cpp
// and the per-operation tables of popopsCycleEstimators.hpp in Graphcore's open-source PopLibs).
//
// In PopLibs these are MultiVertices over all the elements of a tile: each of the 6 workers
// processes ceil(n / 6) elements and the vertex costs numWorkers * workerCycles + a supervisor
// overhead. The simulator adds one vertex per worker chunk instead (the same split, see
// addElementWiseVertices), each estimated at `...WorkerCycles` of its own elements, so the tile
// costs numWorkers * the busiest worker, as PopLibs computes it.

#include <cstdint>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <popops/ExprOp.hpp>
#include <vector>

namespace tilescope::poplibs::cycles {

/// How one operation's inner loop runs (PopLibs' OpPerformanceInfo): either one natural vector
/// (64 bits) per loop in `cyclesPerLoop` + a per-loop overhead, or `unroll` elements per loop
/// in exactly `cyclesPerLoop`, or (neither) one element per loop plus the overhead.
struct OpLoopInfo {
    unsigned cyclesPerLoop = 0;
    bool naturalVectorWidth = false;
    unsigned unroll = 0;
};

/// The loop figures of a unary or binary operation on `type`, from PopLibs' tables; false when
/// PopLibs has no entry for that pair (the caller then uses a modelled figure).
bool unaryOpLoopInfo(popops::expr::UnaryOpType op, const poplar::Type& type, bool inPlace,
                     OpLoopInfo& info);
bool binaryOpLoopInfo(popops::expr::BinaryOpType op, const poplar::Type& type, OpLoopInfo& info);

/// Thread cycles of one worker running a UnaryOp1D(InPlace) over `elements`.
std::uint64_t unaryOp1DWorkerCycles(const poplar::Target& target, popops::expr::UnaryOpType op,
                                    const poplar::Type& type, bool inPlace, std::uint64_t elements);
/// Thread cycles of one worker running a BinaryOp1D(InPlace) over `elements`.
std::uint64_t binaryOp1DWorkerCycles(const poplar::Target& target, popops::expr::BinaryOpType op,
                                     const poplar::Type& type, bool inPlace,
                                     std::uint64_t elements);

/// PopLibs' estimate of a whole UnaryOp1D(InPlace) MultiVertex over `elements` on one tile, in
/// tile cycles: numWorkers * worker(ceil(elements / numWorkers)) + its supervisor overheads.
std::uint64_t unaryOp1DVertexCycles(const poplar::Target& target, popops::expr::UnaryOpType op,
                                    const poplar::Type& type, bool inPlace, std::uint64_t elements);
/// The same for BinaryOp1D(InPlace).
std::uint64_t binaryOp1DVertexCycles(const poplar::Target& target, popops::expr::BinaryOpType op,
                                     const poplar::Type& type, bool inPlace,
                                     std::uint64_t elements);

/// Thread cycles of one worker of PopLibs' BroadcastScalar1D(InPlace) over `elements`, following
/// broadcastArithmeticSupervisorCycleEstimate (popopsCycleEstimators.cpp, SDK 2.x): 20 cycles,
/// then the loops of broadcastOpPerfInfo (broadcastOpInPlacePerfInfo has the same figures for
/// this subset), a natural-vector loop paying 1 more cycle for the assembly FLOAT/HALF ADD,
/// SUBTRACT and MULTIPLY and 4 for the rest.
std::uint64_t broadcastScalar1DWorkerCycles(const poplar::Target& target,
                                            popops::expr::BinaryOpType op, const poplar::Type& type,
                                            bool inPlace, std::uint64_t elements);
/// Thread cycles of one PopLibs BroadcastScalar2DData(InPlace) worker vertex over runs of
/// `regions` elements each (its estimator: 20, and per region the loop of
/// broadcastScalar1DWorkerCycles plus 28).
std::uint64_t broadcastScalar2DWorkerCycles(const poplar::Target& target,
                                            popops::expr::BinaryOpType op, const poplar::Type& type,
                                            bool inPlace,
                                            const std::vector<std::uint64_t>& regions);
/// PopLibs' estimate of a whole BroadcastScalar1D(InPlace) MultiVertex over `elements` on one
/// tile: numWorkers * worker(ceil(elements / numWorkers)) + basicOpSupervisorOverhead.
std::uint64_t broadcastScalar1DVertexCycles(const poplar::Target& target,
                                            popops::expr::BinaryOpType op, const poplar::Type& type,
                                            bool inPlace, std::uint64_t elements);

/// Thread cycles of one worker's share of the codelet PopLibs generates for popops::map over an
/// expression of more than one operation, over `elements` of `type`, following the estimate
/// executeCodelet sets (lib/popops/ExpressionGenerator.cpp): the MultiVertex costs 20 + for each
/// of the `inputs`, (elements / vectorWidth + elements % vectorWidth) x the `fusedOps` (unary,
/// binary and ternary operations alike, whatever they are). Each worker is charged its own
/// elements and a worker's share of the 20.
std::uint64_t mapExprWorkerCycles(const poplar::Target& target, const poplar::Type& type,
                                  unsigned inputs, unsigned fusedOps, std::uint64_t elements);

/// Thread cycles of one worker of popops' ScaledAdd / ScaledSubtract / aXPlusbY over `elements`
/// of FLOAT or HALF data with deltas of the same type, following PopLibs'
/// getScaledArithmeticSupervisorCycleEstimate (popops/PerformanceEstimation.cpp): a 15-cycle
/// prologue, 6 + 3 per further 64-bit vector, the remainder (a FLOAT 8; HALF 5, + 7 for two,
/// + 6 for a third) and the exit. The supervisor part (PopLibs' 21 + 11 + 7..13 + 12 cycles)
/// is the compute set's overhead here.
std::uint64_t scaledAddWorkerCycles(const poplar::Target& target, const poplar::Type& type,
                                    std::uint64_t elements);

/// Thread cycles of one worker of popops' select or clamp (in place or not) over `elements`,
/// following PopLibs' Select and Clamp estimators (popopsCycleEstimators.cpp, one region): 5 for
/// the vertex and 6 for the region; select 5 cycles per element; clamp 2 per 64-bit vector of
/// FLOAT or HALF, 7 per INT element.
std::uint64_t ternaryOpWorkerCycles(const poplar::Target& target, bool clamp,
                                    const poplar::Type& type, std::uint64_t elements);

} // namespace tilescope::poplibs::cycles
