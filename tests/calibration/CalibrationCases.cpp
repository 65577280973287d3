#include "CalibrationCases.hpp"

#include "CompiledFigures.hpp"
#include "TutorialPrograms.hpp"

#include <poplin/Convolution.hpp>
#include <poplin/MatMul.hpp>
#include <popops/Cast.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduction.hpp>
#include <popops/ScaledAdd.hpp>
#include <poputil/TileMapping.hpp>

namespace tilescope::calibration {

namespace {

// Public sources, named once.
const char* const kGc200 =
    "Graphcore GC200 (Mk2) announcement, July 2020: 250 TFLOPS FP16, 62.5 TFLOPS FP32, "
    "1472 tiles at 1.33 GHz";
const char* const kJia2019 =
    "Jia et al., Dissecting the Graphcore IPU Architecture via Microbenchmarking (2019): "
    "GC2 (Mk1) theoretical peak 124.5 TFLOPS mixed, 31.1 TFLOPS single, 1216 tiles at 1.6 GHz";
const char* const kPopopsEstimators =
    "PopLibs lib/popops/popopsCycleEstimators.cpp (BinaryOp1D / UnaryOp1D MultiVertex), "
    "worked out for the same size";
const char* const kBroadcastScalarEstimators =
    "PopLibs lib/popops/popopsCycleEstimators.cpp (BroadcastScalar1D MultiVertex, "
    "broadcastArithmeticSupervisorCycleEstimate with broadcastOpPerfInfo), worked out for the "
    "same size";
const char* const kSliceEstimators =
    "PopLibs lib/popops/PerformanceEstimation.cpp (getMultiSliceCycleEstimate, "
    "getMultiUpdateOpCycleEstimate) as popopsCycleEstimators.cpp calls them for the MultiSlice "
    "and ScaledMultiUpdateOp vertices (every index in range), worked out for the same size";
const char* const kMapExprEstimate =
    "PopLibs lib/popops/ExpressionGenerator.cpp (executeCodelet's estimate of the generated "
    "MultiVertex)";
const char* const kReduceEstimators =
    "PopLibs lib/popops/reduction/CycleEstimationFunctions.cpp (ReduceAllRegionsContinuous, "
    "numOutputsM1 as PopLibs passes it), 6 workers";
const char* const kStridedReduceEstimators =
    "PopLibs lib/popops/reduction/CycleEstimationFunctions.cpp "
    "(getCyclesEstimateForStridedReduce), 6 workers";
const char* const kScaledAddEstimators =
    "PopLibs lib/popops/PerformanceEstimation.cpp (getScaledArithmeticSupervisorCycleEstimate, "
    "constant scale)";
const char* const kConvEstimators =
    "PopLibs lib/poplin/PerformanceEstimation.hpp (getConvPartial1x1SupervisorCycleEstimate, "
    "getConvPartialnx1SupervisorCycleEstimate, getConvPartialHorizontalMacSupervisorCycleEstimate)"
    ", worked out by hand for the same shape on one ipu2 tile (6 workers, output rows dealt "
    "round-robin)";
const char* const kSlicEstimators =
    "PopLibs lib/poplin/PerformanceEstimation.hpp of the ConvPartial1x4SLIC version "
    "(getConvPartialSlicSupervisorOuterLoopCycleEstimate, ...InnerLoopCycleEstimate, "
    "...WeightLoadCycleEstimate), worked out by hand for the same shape on one ipu2 tile";
const char* const kCastEstimators =
    "PopLibs lib/popops/PerformanceEstimation.cpp (getCast1DCycleEstimate)";

// The memory figures are issue 18's readings of published Poplar profiles (PopVision Graph
// Analyser), approximate as quoted there; the programs are rebuilt here as described.
const char* const kTut4Memory =
    "issue 18, reading Poplar's profile of the two-matMul program of Graphcore's Poplar "
    "tutorial 4 (tut4_profiling: FLOAT m1 900x600, m2 600x300, m3 300x200 mapped linearly, "
    "(m1 m2) m3, one Mk2 IPU); approximate";
const char* const kDenseMemory =
    "issue 18, reading a published Poplar profile of a FLOAT dense layer 16x4096 by 4096x1024 "
    "on one Mk2 IPU (operands created by createMatMulInputLHS/RHS here); approximate";

poplar::Tensor onTile0(poplar::Graph& g, const poplar::Type& type, std::vector<std::size_t> shape,
                       const std::string& name) {
    poplar::Tensor t = g.addVariable(type, shape, name);
    g.setTileMapping(t, 0);
    return t;
}

/// FLOPs per tile cycle of an M x K x N matrix product on one tile.
double matMulFlopsPerCycle(const std::string& arch, const poplar::Type& type, std::size_t n) {
    const auto cycles = computeSetCycles(
        arch, 1,
        [&](poplar::Graph& g, poplar::program::Sequence& prog) {
            poplin::matMul(g, onTile0(g, type, {n, n}, "a"), onTile0(g, type, {n, n}, "b"), prog,
                           type);
        },
        "matMul");
    return 2.0 * double(n) * double(n) * double(n) / double(cycles);
}

/// Cycles on tile 0 of `build`'s compute set named `cs`, on a one-tile ipu2.
double tileCycles(const std::function<void(poplar::Graph&, poplar::program::Sequence&)>& build,
                  const std::string& cs) {
    return double(computeSetCycles("ipu2", 1, build, cs));
}

/// Mean internal exchange code per tile that has any, for `build`'s program on a whole ipu2.
double exchangeCodePerUsedTile(
    const std::function<void(poplar::Graph&, poplar::program::Sequence&)>& build) {
    return meanBytesPerUsedTile("ipu2", 1472, build, capture::MemoryCategory::InternalExchangeCode);
}

/// A dense layer as a framework builds it: operands laid out for the product's plan.
void denseLayer16x4096x1024(poplar::Graph& g, poplar::program::Sequence& prog) {
    const std::vector<std::size_t> xShape = {16, 4096};
    const std::vector<std::size_t> wShape = {4096, 1024};
    poplar::Tensor x = poplin::createMatMulInputLHS(g, poplar::FLOAT, xShape, wShape, "x");
    poplar::Tensor w = poplin::createMatMulInputRHS(g, poplar::FLOAT, xShape, wShape, "w");
    poplin::matMul(g, x, w, prog, "dense");
}

/// Tile cycles of the "Convolve" compute set of a convolution on one ipu2 tile, its operands
/// created for the plan.
double convolutionCycles(const poplin::ConvParams& params) {
    return tileCycles(
        [&](poplar::Graph& g, poplar::program::Sequence& prog) {
            poplar::Tensor in = poplin::createInput(g, params, "in");
            poplar::Tensor w = poplin::createWeights(g, params, "w");
            poplin::convolution(g, in, w, params, false, prog, "conv");
        },
        "Convolve");
}

poplin::ConvParams paddedConv(const poplar::Type& type, std::size_t channels) {
    poplin::ConvParams p(type, 1, {8, 8}, {3, 3}, channels, channels, 1);
    p.inputTransform.paddingLower = {1, 1};
    p.inputTransform.paddingUpper = {1, 1};
    return p;
}

} // namespace

std::vector<CalibrationCase> calibrationCases() {
    using poplar::FLOAT;
    using poplar::HALF;
    using Prog = poplar::program::Sequence;
    // A matrix product on one tile reaches at most the AMP peak; below half of it the estimate
    // would no longer be PopLibs'.
    constexpr double kEfficiencyLow = 0.5;
    // Figures worked out from PopLibs' estimators or read off profiles: within 1.25x.
    constexpr double kBand = 1.25;
    std::vector<CalibrationCase> cases = {
        // Peak AMP throughput: the ratio is the efficiency PopLibs' ConvPartial1x1Out
        // estimator gives a matrix product of this size on one tile.
        {"HALF matMul 192x192x192 on one ipu2 tile, FLOPs per tile cycle", "FLOPs/cycle",
         250e12 / (1472 * 1.33e9), kGc200, [] { return matMulFlopsPerCycle("ipu2", HALF, 192); },
         kEfficiencyLow, 1.0, ""},
        {"FLOAT matMul 128x128x128 on one ipu2 tile, FLOPs per tile cycle", "FLOPs/cycle",
         62.5e12 / (1472 * 1.33e9), kGc200, [] { return matMulFlopsPerCycle("ipu2", FLOAT, 128); },
         kEfficiencyLow, 1.0, ""},
        {"HALF matMul 128x128x128 on one ipu1 tile, FLOPs per tile cycle", "FLOPs/cycle",
         124.5e12 / (1216 * 1.6e9), kJia2019, [] { return matMulFlopsPerCycle("ipu1", HALF, 128); },
         kEfficiencyLow, 1.0, ""},
        {"FLOAT matMul 96x96x96 on one ipu1 tile, FLOPs per tile cycle", "FLOPs/cycle",
         31.1e12 / (1216 * 1.6e9), kJia2019, [] { return matMulFlopsPerCycle("ipu1", FLOAT, 96); },
         kEfficiencyLow, 1.0, ""},
        // Element-wise vertices over 1000 elements of one tile: PopLibs' MultiVertex figure
        // (6 x worker(ceil(1000 / 6)) + supervisor) against the compiled compute set (the
        // compute-set overhead + 6 x the busiest of the simulator's per-worker vertices).
        // ADD FLOAT: worker 29 + ceil(167 / 2) x (1 + 2) = 281; 6 x 281 + 11.
        {"popops::add FLOAT, 1000 elements on one tile, compute-set cycles", "cycles", 6 * 281 + 11,
         kPopopsEstimators,
         [] {
             return tileCycles(
                 [](poplar::Graph& g, Prog& p) {
                     popops::add(g, onTile0(g, FLOAT, {1000}, "a"), onTile0(g, FLOAT, {1000}, "b"),
                                 p, "add");
                 },
                 "add");
         },
         1 / kBand, kBand, ""},
        // MULTIPLY HALF: worker 26 + ceil(167 / 4) x (1 + 2) = 152; 6 x 152 + 11.
        {"popops::mul HALF, 1000 elements on one tile, compute-set cycles", "cycles", 6 * 152 + 11,
         kPopopsEstimators,
         [] {
             return tileCycles(
                 [](poplar::Graph& g, Prog& p) {
                     popops::mul(g, onTile0(g, HALF, {1000}, "a"), onTile0(g, HALF, {1000}, "b"), p,
                                 "mul");
                 },
                 "multiply");
         },
         1 / kBand, kBand, ""},
        // EXPONENT FLOAT: worker 33 + ceil(167 / 2) x 6 = 537; 6 x 537 + 9 + 11.
        {"popops::exp FLOAT, 1000 elements on one tile, compute-set cycles", "cycles",
         6 * 537 + 9 + 11, kPopopsEstimators,
         [] {
             return tileCycles(
                 [](poplar::Graph& g, Prog& p) {
                     popops::exp(g, onTile0(g, FLOAT, {1000}, "x"), p, "exp");
                 },
                 "exponent");
         },
         1 / kBand, kBand, ""},
        // POWER has no vector loop: one element per loop, 312 cycles FLOAT and 325 HALF
        // (binaryOpPerfInfo), so HALF is no faster than FLOAT per element.
        // FLOAT: worker 29 + ceil(1000 / 6) x 312 = 52133; 6 x 52133 + 11.
        {"popops::pow FLOAT, 1000 elements on one tile, compute-set cycles", "cycles",
         6 * 52133 + 11, kPopopsEstimators,
         [] {
             return tileCycles(
                 [](poplar::Graph& g, Prog& p) {
                     popops::pow(g, onTile0(g, FLOAT, {1000}, "x"), onTile0(g, FLOAT, {1000}, "y"),
                                 p, "pow");
                 },
                 "power");
         },
         1 / kBand, kBand, ""},
        // HALF: worker 26 + 167 x 325 = 54301; 6 x 54301 + 11.
        {"popops::pow HALF, 1000 elements on one tile, compute-set cycles", "cycles",
         6 * 54301 + 11, kPopopsEstimators,
         [] {
             return tileCycles(
                 [](poplar::Graph& g, Prog& p) {
                     popops::pow(g, onTile0(g, HALF, {1000}, "x"), onTile0(g, HALF, {1000}, "y"), p,
                                 "pow");
                 },
                 "power");
         },
         1 / kBand, kBand, ""},
        // With a one-element exponent PopLibs' binaryOp takes the BroadcastScalar1D vertex:
        // worker 20 + 167 x 325 = 54295; 6 x 54295 + 11.
        {"popops::pow HALF by a one-element exponent, 1000 elements on one tile, compute-set "
         "cycles",
         "cycles", 6 * 54295 + 11, kBroadcastScalarEstimators,
         [] {
             return tileCycles(
                 [](poplar::Graph& g, Prog& p) {
                     popops::pow(g, onTile0(g, HALF, {1000}, "x"), onTile0(g, HALF, {1}, "y"), p,
                                 "pow");
                 },
                 "power");
         },
         1 / kBand, kBand, ""},
        // popops::multiSlice of 60 indices from a 100 x 16 FLOAT table on one tile: the
        // indices split over 6 workers, 10 each; getMultiSliceCycleEstimate 13 + 10 x (19 + 8
        // vectors x 2) = 363; 6 x 363.
        {"popops::multiSlice FLOAT 100x16 table, 60 indices, one ipu2 tile, compute-set cycles",
         "cycles", 6 * 363, kSliceEstimators,
         [] {
             return tileCycles(
                 [](poplar::Graph& g, Prog& p) {
                     popops::multiSlice(g, onTile0(g, FLOAT, {100, 16}, "table"),
                                        onTile0(g, poplar::UNSIGNED_INT, {60, 1}, "idx"), {0}, {1},
                                        p, popops::SlicePlan(), {}, "lookup");
                 },
                 "multiSlice");
         },
         1 / kBand, kBand, ""},
        // popops::multiUpdateAdd of 60 slices into the same table: each worker owns a sixth of
        // the entries and checks all 60 indices; getMultiUpdateOpCycleEstimate (FLOAT, scaled)
        // 3 + 24 + 2 + 60 x (11 + 15 atoms x 3) = 3389; 6 x 3389 + 25 supervisor cycles.
        {"popops::multiUpdateAdd FLOAT 100x16 table, 60 slices, one ipu2 tile, compute-set "
         "cycles",
         "cycles", 6 * 3389 + 25, kSliceEstimators,
         [] {
             return tileCycles(
                 [](poplar::Graph& g, Prog& p) {
                     popops::multiUpdateAdd(g, onTile0(g, FLOAT, {100, 16}, "table"),
                                            onTile0(g, FLOAT, {60, 1, 16}, "slices"),
                                            onTile0(g, poplar::UNSIGNED_INT, {60, 1}, "idx"),
                                            onTile0(g, FLOAT, {}, "scale"), {0}, {1}, p,
                                            popops::SlicePlan(), {}, "update");
                 },
                 "multiUpdateAdd");
         },
         1 / kBand, kBand, ""},
        // popops::map fusing (_1 - _2) * _3, two operations on three inputs: PopLibs' generated
        // codelet, 20 + 3 x (1000 / vectorWidth) x 2 rounded up to a multiple of 6 workers.
        // FLOAT: 20 + 3 x 500 x 2 = 3020 -> 3024.
        {"popops::map (_1 - _2) * _3 FLOAT, 1000 elements on one tile, compute-set cycles",
         "cycles", 3024, kMapExprEstimate,
         [] {
             return tileCycles(
                 [](poplar::Graph& g, Prog& p) {
                     namespace pe = popops::expr;
                     popops::map(g, (pe::_1 - pe::_2) * pe::_3,
                                 {onTile0(g, FLOAT, {1000}, "a"), onTile0(g, FLOAT, {1000}, "b"),
                                  onTile0(g, FLOAT, {1000}, "c")},
                                 p, "fused");
                 },
                 "map");
         },
         1 / kBand, kBand, ""},
        // HALF: 20 + 3 x 250 x 2 = 1520 -> 1524.
        {"popops::map (_1 - _2) * _3 HALF, 1000 elements on one tile, compute-set cycles", "cycles",
         1524, kMapExprEstimate,
         [] {
             return tileCycles(
                 [](poplar::Graph& g, Prog& p) {
                     namespace pe = popops::expr;
                     popops::map(g, (pe::_1 - pe::_2) * pe::_3,
                                 {onTile0(g, HALF, {1000}, "a"), onTile0(g, HALF, {1000}, "b"),
                                  onTile0(g, HALF, {1000}, "c")},
                                 p, "fused");
                 },
                 "map");
         },
         1 / kBand, kBand, ""},
        // popops::map Pow(_1, 2) HALF: a single operation is not fused, and PopLibs' expression
        // optimisation makes it SQUARE (2 cycles per 4 halves): worker 17 + ceil(167 / 4) x 2
        // = 101; 6 x 101 + 9 + 11.
        {"popops::map Pow(_1, 2) HALF, 1000 elements on one tile, compute-set cycles", "cycles",
         6 * 101 + 9 + 11, kPopopsEstimators,
         [] {
             return tileCycles(
                 [](poplar::Graph& g, Prog& p) {
                     namespace pe = popops::expr;
                     popops::map(g, pe::Pow(pe::_1, pe::Const(2.0f)),
                                 {onTile0(g, HALF, {1000}, "x")}, p, "square");
                 },
                 "map");
         },
         1 / kBand, kBand, ""},
        // Reduce 64 x 100 FLOAT over the 100: workers of 12 outputs (the simulator's split);
        // PopLibs: 11 (numOutputsM1) x 100 / 2 + 12 x 11 + 10 + 7 = 699 per worker, x 6.
        {"popops::reduce ADD FLOAT 64x100 over dim 1 on one tile, compute-set cycles", "cycles",
         6 * 699, kReduceEstimators,
         [] {
             return tileCycles(
                 [](poplar::Graph& g, Prog& p) {
                     popops::reduce(g, onTile0(g, FLOAT, {64, 100}, "x"), {1},
                                    {popops::Operation::ADD}, p, "reduce");
                 },
                 "reduce");
         },
         1 / kBand, kBand, ""},
        // Reduce 3 x 600 FLOAT over dim 0 (partials 600 apart): workers of 100 outputs;
        // PopLibs' strided reduce: 4 + 11 + 50 groups of 2 x (3 + 5 + 3 + 2) = 665, x 6.
        {"popops::reduce ADD FLOAT 3x600 over dim 0 on one tile, compute-set cycles", "cycles",
         6 * 665, kStridedReduceEstimators,
         [] {
             return tileCycles(
                 [](poplar::Graph& g, Prog& p) {
                     popops::reduce(g, onTile0(g, FLOAT, {3, 600}, "x"), {0},
                                    {popops::Operation::ADD}, p, "reduce");
                 },
                 "reduce");
         },
         1 / kBand, kBand, ""},
        // scaledAddTo FLOAT with a constant scale: 500 vectors, 83 per worker as PopLibs
        // divides them: worker 15 + 6 + 3 x 82 + 2 + 1 + 1 = 271; supervisor 21 + 11 + 7 + 12.
        {"popops::scaledAddTo FLOAT, 1000 elements on one tile, compute-set cycles", "cycles",
         21 + 11 + 7 + 12 + 6 * 271, kScaledAddEstimators,
         [] {
             return tileCycles(
                 [](poplar::Graph& g, Prog& p) {
                     popops::scaledAddTo(g, onTile0(g, FLOAT, {1000}, "a"),
                                         onTile0(g, FLOAT, {1000}, "b"), 0.5f, p, "axpy");
                 },
                 "scaledAddTo");
         },
         1 / kBand, kBand, ""},
        // Cast HALF to FLOAT: 12 + 6 x (castWorkerCycles(167) + 18), castWorkerCycles(167) =
        // 19 + 83 vectors of 2 + 1 remainder test + 2 for the odd element = 105.
        {"popops::cast HALF to FLOAT, 1000 elements on one tile, compute-set cycles", "cycles",
         12 + 6 * (105 + 18), kCastEstimators,
         [] {
             return tileCycles(
                 [](poplar::Graph& g, Prog& p) {
                     popops::cast(g, onTile0(g, HALF, {1000}, "x"), FLOAT, p, "cast");
                 },
                 "cast");
         },
         1 / kBand, kBand, ""},
        // Convolutions on one tile: PopLibs' vertex estimators worked out by hand, weights
        // loaded 64 bits at a time (8 bytes a cycle: use128BitConvUnitLoad's default, false).
        // 1x1, 16 -> 16 HALF channels, 8x8: 64 output elements, workers 11,11,11,11,10,10; PopLibs'
        // current estimator (FLOAT partials): with zeroing 38 + 4 x 8 - 10 = 60 per worker, x 6 =
        // 360; weight loads 16 x 16 x 2 / 8 = 64; 50 + 6 x 10 + 12 + 11 + 19 + 7 + 64 + 360 = 583.
        {"conv 1x1 HALF 16->16 channels, 8x8 field, one ipu2 tile (ConvPartial1x1Out)", "cycles",
         583, kConvEstimators,
         [] {
             return convolutionCycles(poplin::ConvParams(HALF, 1, {8, 8}, {1, 1}, 16, 16, 1));
         },
         1 / kBand, kBand, ""},
        // 3x3 padded, 16 -> 16 HALF, 8x8: 8 rows of 8 (workers 2,2,1,1,1,1); per row 35 + 5 x 4
        // = 55, busiest 6 x (19 + 110) = 774; weight loads 4 x 4 x 16 x 2 / 8 = 64; per kernel
        // position 13 + 64 + 15 + 774 = 866; 3 x (15 + 3 x 866) = 7839; 93 + 15 + 16 + 16 + 7839
        // = 7979.
        {"conv 3x3 HALF 16->16 channels, 8x8 field padded, one ipu2 tile (ConvPartialnx1)",
         "cycles", 7979, kConvEstimators, [] { return convolutionCycles(paddedConv(HALF, 16)); },
         1 / kBand, kBand, ""},
        // The same in FLOAT, 8 -> 8 channels: weight loads 2 x 4 x 8 x 4 / 8 = 32;
        // 3 x (15 + 3 x (13 + 32 + 15 + 774)) = 7551; 93 + 15 + 16 + 16 + 7551 = 7691.
        {"conv 3x3 FLOAT 8->8 channels, 8x8 field padded, one ipu2 tile (ConvPartialnx1)", "cycles",
         7691, kConvEstimators, [] { return convolutionCycles(paddedConv(FLOAT, 8)); }, 1 / kBand,
         kBand, ""},
        // 4 conv groups of the 1x1 16 -> 16 HALF above in one vertex (PopLibs' numConvGroupGroups):
        // 50 fixed once, retention 6 x (10 + 2 x 3), 4 x (12 + 11 + 19 + 7 + 64 + 360) = 2038
        // (one vertex a group: 4 x 583 = 2332).
        {"conv 1x1 HALF 4 groups of 16->16 channels, 8x8 field, one ipu2 tile (one "
         "ConvPartial1x1Out for the 4 groups)",
         "cycles", 2038, kConvEstimators,
         [] {
             return convolutionCycles(poplin::ConvParams(HALF, 1, {8, 8}, {1, 1}, 16, 16, 4));
         },
         1 / kBand, kBand, ""},
        // Depthwise 3x3 padded, 8 HALF channels, 8x8: SLIC with 4 conv groups a group (2 groups
        // of groups), 3 sub-kernels; workers 2,2,1,1,1,1 rows of 8: zeroing 6 x (17 + 2 x 31),
        // plain 6 x (17 + 2 x 30); weights 16 + 9 + 6 + 6 x 10 + 6 = 97 a sub-kernel;
        // 28 + 37 + (3 x 116 + 13) + 2 x 474 + 4 x 462 = 3222.
        {"depthwise conv 3x3 HALF 8 channels, 8x8 field padded, one ipu2 tile "
         "(ConvPartial1x4SLIC)",
         "cycles", 3222, kSlicEstimators,
         [] {
             poplin::ConvParams p(HALF, 1, {8, 8}, {3, 3}, 1, 1, 8);
             p.inputTransform.paddingLower = {1, 1};
             p.inputTransform.paddingUpper = {1, 1};
             return convolutionCycles(p);
         },
         1 / kBand, kBand, ""},
        // 1-D, batch 6, width 3, kernel 3, one channel: one row of one element per worker;
        // per kernel position 16 + 19 + (7 + dot(1) = 5) = 47, 3 x 47 + 16 = 157, x 6 = 942;
        // 62 + 21 + 15 + 10 + 942 = 1050 (the AMP vertex would take 1196).
        {"conv 1-D width 3 kernel 3 FLOAT 1->1 channel, batch 6, one ipu2 tile "
         "(ConvPartialHorizontalMac)",
         "cycles", 1050, kConvEstimators,
         [] { return convolutionCycles(poplin::ConvParams(FLOAT, 6, {3}, {3}, 1, 1, 1)); },
         1 / kBand, kBand, ""},
        // Memory: internal exchange code is per message (simcore/README.md, memory accounting).
        {"Poplar tutorial 4 two-matMul program on one ipu2, internal exchange code per used tile",
         "bytes", 2600, kTut4Memory,
         [] {
             return exchangeCodePerUsedTile(
                 [](poplar::Graph& g, Prog& p) { buildChainedMatMuls(g, p, kTut4Source); });
         },
         1 / kBand, kBand, ""},
        {"dense layer 16x4096x1024 FLOAT on one ipu2, internal exchange code per used tile",
         "bytes", 250, kDenseMemory, [] { return exchangeCodePerUsedTile(denseLayer16x4096x1024); },
         1 / kBand, kBand, ""},
    };
    auto tutorials = tutorialCases();
    cases.insert(cases.end(), tutorials.begin(), tutorials.end());
    return cases;
}

} // namespace tilescope::calibration
