#pragma once
// The one place that holds the cycle estimates of the PopLibs vertices. Every estimate is in
// thread cycles of one worker context (the unit Graph::setPerfEstimate takes): the simulator's
// compiler charges a tile numWorkerContexts tile cycles per thread cycle of its busiest worker.
//
// Published figures the formulas derive from (Graphcore's Colossus Mk2 GC200 announcement, as
// reported by the press in July 2020: 1472 tiles, 6 worker threads per tile, 250 TFLOPS of FP16
// arithmetic and 62.5 TFLOPS of FP32; tile clock 1.33 GHz, TargetSpec::ipu2):
//   - HALF matrix products on the accumulating matrix product (AMP) units:
//     250e12 / (1472 tiles * 1.33e9 Hz) = 127.7, i.e. 128 FLOPs = 64 multiply-accumulates per
//     tile cycle.
//   - FLOAT AMP: 62.5e12 / (1472 * 1.33e9) = 31.9, i.e. 32 FLOPs = 16 multiply-accumulates per
//     tile cycle.
//   - Element-wise vector arithmetic uses the 64-bit data path (TargetSpec::dataPathWidthBits):
//     one vector of 2 FLOAT or 4 HALF values per thread cycle per worker; a binary operation
//     needs two loads, so it issues one vector every 2 thread cycles.
// Estimates that follow PopLibs' public estimator formulas (Graphcore's open-source PopLibs,
// *CycleEstimators.cpp and PerformanceEstimation files; constants named where they are used):
// fill, cast, reduceContinuous, reduceStrided, convPartial1x1 / matMulBlock here; the element-wise
// UnaryOp1D / BinaryOp1D, ScaledAdd, select and clamp vertices in popops/ElementWiseCycles.hpp;
// popnn's NonLinearity1D and NonLinearityGrad1D in popnn/NonLinearityCycles.hpp. The remaining ones
// (elementWise for map expressions and popnn losses; dynamicSlice, rowScan, randomValues) and their
// constants (per-vertex overheads, transcendental costs) are modelled figures of the right order,
// not PopLibs'. simcore/CALIBRATION.md compares both with published figures.

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>

namespace tilescope::poplibs::cycles {

/// Multiply-accumulates per tile cycle of the AMP units (see the figures above).
inline std::uint64_t ampMacsPerTileCycle(const poplar::Type& inputType) {
    return inputType == poplar::HALF ? 64 : 16;
}

/// Peak FLOPs per tile cycle of the whole tile (AMP, 2 FLOPs per multiply-accumulate).
inline std::uint64_t peakFlopsPerTileCycle(const poplar::Type& inputType) {
    return 2 * ampMacsPerTileCycle(inputType);
}

/// Fixed thread cycles of any library vertex: loading its state and pointers, loop set-up.
inline constexpr std::uint64_t kVertexOverhead = 12;
/// Thread cycles per element of a transcendental function (exp, log, tanh, sigmoid, sqrt, pow,
/// divide): evaluated element by element in several instructions. Modelled.
inline constexpr std::uint64_t kTranscendentalCyclesPerElement = 8;

inline std::uint64_t vectors(const poplar::Target& target, const poplar::Type& type,
                             std::uint64_t elements) {
    const std::uint64_t width = target.getVectorWidth(type);
    return (elements + width - 1) / width;
}

/// A unary or binary element-wise operation over `elements` on one worker. `inputs` is 1 or 2;
/// transcendental operations cost per element rather than per vector.
inline std::uint64_t elementWise(const poplar::Target& target, const poplar::Type& type,
                                 std::uint64_t elements, unsigned inputs, bool transcendental) {
    if (transcendental)
        return kVertexOverhead + elements * kTranscendentalCyclesPerElement;
    return kVertexOverhead + vectors(target, type, elements) * inputs;
}

// popops' ReduceAllRegionsContinuous vertex (each output reduces a contiguous run of partials),
// following PopLibs' getCycleEstimateReduceAllRegionsContinuous and the figures
// getCycleEstimateForReduceVertex feeds it (lib/popops/reduction/CycleEstimationFunctions.cpp):
/// Accumulator vector width of the ADD/SQUARE_ADD/MAX/MIN/MUL assembly: 8 HALF, 4 FLOAT, else 1.
inline unsigned reduceAccumulatorWidth(const poplar::Type& partialsType) {
    return partialsType == poplar::HALF ? 8 : partialsType == poplar::FLOAT ? 4 : 1;
}
/// Cycles per operation: 1 for the assembly operations, 20 for LOG_ADD (a scalar C++ loop).
inline constexpr std::uint64_t kReduceCyclesPerOp = 1;
inline constexpr std::uint64_t kReduceLogAddCyclesPerOp = 20;
/// Per output: 12 cycles of set-up and store; per vertex 10 + 7 (call and return); 2 more for
/// an odd partial count, 1 for an update (out += reduce(partials)).
inline constexpr std::uint64_t kReducePerOutputCycles = 12;
inline constexpr std::uint64_t kReduceVertexCycles = 10 + 7;

/// One worker reducing `outputs` results from `partialsPerOutput` contiguous partials each:
/// cyclesPerOp * outputs * (partials / elements per inner loop) + 12 per output + the fixed
/// cycles. (PopLibs passes numOutputsM1 where the formula names numOutputs, which would make a
/// single output free of its partials; the simulator uses the number of outputs.)
inline std::uint64_t reduceContinuous(const poplar::Target& target,
                                      const poplar::Type& partialsType, std::uint64_t outputs,
                                      std::uint64_t partialsPerOutput, bool update = false,
                                      bool logAdd = false) {
    const std::uint64_t dataPathElements =
        target.getDataPathWidth() / (8 * target.getTypeSize(partialsType));
    const std::uint64_t opWidth = logAdd ? 1 : reduceAccumulatorWidth(partialsType);
    const std::uint64_t perLoop = std::max<std::uint64_t>(1, std::min(opWidth, dataPathElements));
    const std::uint64_t perOp = logAdd ? kReduceLogAddCyclesPerOp : kReduceCyclesPerOp;
    return perOp * outputs * (partialsPerOutput / perLoop) + (partialsPerOutput % 2 ? 2 : 0) +
           kReducePerOutputCycles * outputs + kReduceVertexCycles + (update ? 1 : 0);
}

/// The class of a reduction's operation, as PopLibs' strided-reduce estimate tells them apart.
enum class ReduceOpClass { Add, MaxMin, LogAdd, Other };

/// popops' strided reduction (an output's partials `stride` elements apart, the partials of
/// consecutive outputs adjacent: reductions over outer dimensions, such as a matMul's partial
/// sums), following PopLibs' getCyclesEstimateForStridedReduce (lib/popops/reduction/
/// CycleEstimationFunctions.cpp) for FLOAT and HALF partials: 4 + 11 fixed; per group of outputs
/// loaded together (gcd(min(accumulator width, data path), stride)) 3 + the store cycles of the
/// type, operation and update + 3 + cyclesPerOp x (partials - 1). Other partial types use
/// reduceContinuous.
inline std::uint64_t reduceStrided(const poplar::Target& target, const poplar::Type& partialsType,
                                   const poplar::Type& outType, ReduceOpClass op,
                                   std::uint64_t outputs, std::uint64_t partialsPerOutput,
                                   std::uint64_t stride, bool update = false) {
    const bool half = partialsType == poplar::HALF;
    if (!half && partialsType != poplar::FLOAT)
        return reduceContinuous(target, partialsType, outputs, partialsPerOutput, update,
                                op == ReduceOpClass::LogAdd);
    const bool logAdd = op == ReduceOpClass::LogAdd;
    const bool outHalf = outType == poplar::HALF;
    // Storing a group of results: PopLibs' per-type tables (0 for operations they do not list).
    std::uint64_t post = 0;
    if (half) {
        post = 1;
        if (op == ReduceOpClass::Add)
            post += outHalf ? (update ? 9 : 7) : (update ? 11 : 6);
        else if (op == ReduceOpClass::MaxMin)
            post += update ? 10 : 7;
        else if (logAdd)
            post += outHalf ? (update ? 22 : 7) : (update ? 56 : 7);
    } else {
        post = op == ReduceOpClass::Add ? 3 : 2;
        if (logAdd)
            post += outHalf ? (update ? 13 : 2) : (update ? 27 : 2);
        else
            post += outHalf ? (update ? 4 : 2) : (update ? 5 : 2);
    }
    const std::uint64_t perOp = logAdd ? (half ? 13 : 23) : 1;
    const std::uint64_t opWidth = logAdd ? (half ? 4 : 2) : reduceAccumulatorWidth(partialsType);
    const std::uint64_t dataPathElements =
        target.getDataPathWidth() / (8 * target.getTypeSize(partialsType));
    const std::uint64_t perLoop =
        std::max<std::uint64_t>(1, std::gcd(std::min(opWidth, dataPathElements), stride));
    const std::uint64_t outer = 3 + post + 3 + perOp * (partialsPerOutput - 1);
    return 2 + 2 + 6 + 5 + outer * ((outputs + perLoop - 1) / perLoop);
}

/// popops::Fill of `elements` on one worker, following PopLibs' Fill estimator
/// (_fillCycleEstimate in popops' PerformanceEstimation): 16 cycles before the loop, one 64-bit
/// store per cycle, 6 after it, one for a lone trailing element and one for the average
/// alignment cost.
inline std::uint64_t fill(const poplar::Target& target, const poplar::Type& type,
                          std::uint64_t elements) {
    const std::uint64_t width = target.getVectorWidth(type);
    return 16 + elements / width + 6 + (elements % width == 1 ? 1 : 0) + 1;
}

/// popops::Cast of `elements` on one worker, following PopLibs' castWorkerCycles (non-char
/// types) plus its 5 cycles of parameter loading and call: conversions between FLOAT and HALF
/// run on the auxiliary pipeline, a vector of min(2 loads, 1 store) wide per cycle; any other
/// pair converts one element per 2 cycles. 19 cycles of prologue, and per remainder bit one
/// test plus 2 cycles when that bit is set.
inline std::uint64_t cast(const poplar::Target& target, const poplar::Type& from,
                          const poplar::Type& to, std::uint64_t elements) {
    const std::uint64_t dataPathBytes = target.getDataPathWidth() / 8;
    const std::uint64_t loadWidth = dataPathBytes / target.getTypeSize(from);
    const std::uint64_t storeWidth = dataPathBytes / target.getTypeSize(to);
    const bool aux = (from == poplar::FLOAT || from == poplar::HALF) &&
                     (to == poplar::FLOAT || to == poplar::HALF);
    const std::uint64_t vectorWidth = aux ? std::min(2 * loadWidth, storeWidth) : 1;
    const std::uint64_t loadCycles = vectorWidth / std::min(vectorWidth, loadWidth);
    const std::uint64_t storeCycles = vectorWidth / std::min(vectorWidth, storeWidth);
    const std::uint64_t perVector = std::max(loadCycles, storeCycles) + (aux ? 0 : 1);
    std::uint64_t cycles = 5 + 19 + perVector * (elements / vectorWidth);
    const std::uint64_t remainder = elements % vectorWidth;
    for (std::uint64_t bit = 1; bit < vectorWidth; bit <<= 1)
        cycles += 1 + ((remainder & bit) ? 2 : 0);
    return cycles;
}

// poplin's matrix products run as ConvPartial1x1Out vertices on the AMP units: out (m x n) =
// a (m x k) x b (k x n) is a 1x1 convolution with m output field elements, k input channels in
// groups of weightsPerConvUnit and n output channels in groups of numConvUnits. The figures
// follow PopLibs' getConvPartial1x1SupervisorCycleEstimate and its inner- and outer-loop parts
// (lib/poplin/PerformanceEstimation.hpp) and the AMP parameters poplar::Target gives PopLibs
// (getNumConvUnits, getWeightsPerConvUnit, getConvUnitInputLoadElemsPerCycle,
// getConvUnitCoeffLoadBytesPerCycle). The per-architecture values are those that reproduce the
// published peaks: a worker feeds one field element every inChansPerGroup / inputLoadElems
// thread cycles (PopLibs' core loop: 8 for FLOAT, 4 for HALF, halved for 4 conv units), and
// numConvUnits x weightsPerConvUnit multiply-accumulates per element over the 6 workers give
// ipu2 64 HALF / 16 FLOAT and ipu1 32 HALF / 8 FLOAT multiply-accumulates per tile cycle (the
// GC200's 250 / 62.5 TFLOPS and the GC2's 124.5 / 31.1 TFLOPS above).
/// Conv units per tile: ipu2 16 HALF, 8 FLOAT; ipu1 8 HALF, 4 FLOAT.
inline unsigned numConvUnits(const poplar::Target& target, const poplar::Type& inputType) {
    const unsigned ipu2Units = inputType == poplar::HALF ? 16 : 8;
    return target.getTargetArchString() == "ipu1" ? ipu2Units / 2 : ipu2Units;
}
/// Input elements each conv unit loads per cycle: 4 HALF, 2 FLOAT (one 64-bit load).
inline unsigned convUnitInputLoadElemsPerCycle(const poplar::Type& inputType) {
    return inputType == poplar::HALF ? 4 : 2;
}
/// Input channels per group (weights held per conv unit): 16 HALF; FLOAT 16 on ipu2, 8 on ipu1.
inline unsigned weightsPerConvUnit(const poplar::Target& target, const poplar::Type& inputType) {
    if (inputType == poplar::HALF)
        return 16;
    return target.getTargetArchString() == "ipu1" ? 8 : 16;
}
/// Coefficient (weight) load bandwidth of the AMP vertices. The target's is 16 bytes per cycle on
/// ipu2 (128-bit loads) and 8 on ipu1; PopLibs' convolution option use128BitConvUnitLoad
/// (default false: "weights are loaded 64-bits at a time") halves it, in the vertices' cycle
/// estimators and in the planner alike (poplin's ConvPartial*Out estimators and ConvModel's
/// addPartialCalcCycleEstimate: `if (!use128BitConvUnitLoad) convUnitCoeffLoadBytesPerCycle /= 2`).
inline unsigned convUnitCoeffLoadBytesPerCycle(const poplar::Target& target,
                                               bool use128BitConvUnitLoad = false) {
    const unsigned targetRate = target.getTargetArchString() == "ipu1" ? 8 : 16;
    return use128BitConvUnitLoad ? targetRate : targetRate / 2;
}

/// Worker thread cycles of one ConvPartial1x1Out pass over `n` field elements, PopLibs'
/// getConvPartial1x1SupervisorInnerLoopCycleEstimate for one worker (its case table by element
/// count, activation and partial type; `zeroing` when the first input group zeroes the partials;
/// HALF activations with FLOAT partials save 10 cycles by state retention).
inline std::uint64_t convPartial1x1WorkerCycles(std::uint64_t n, bool zeroing, bool floatActs,
                                                bool floatPartials, unsigned coreCycles) {
    const std::uint64_t z = zeroing ? 1 : 0;
    const std::uint64_t zeroPerGroup = floatPartials ? 4 : 2;
    std::uint64_t c = 0;
    if (floatActs) {
        c = n == 0   ? 24
            : n == 1 ? 47 + (2 + zeroPerGroup) * z
            : n == 2 ? 46 + (2 + zeroPerGroup * 2) * z
                     : 46 + (2 + zeroPerGroup * n) * z + (n - 3) * coreCycles;
        return c;
    }
    if (floatPartials) {
        c = n == 0   ? 20 + (zeroing ? 2 : 4)
            : n == 1 ? 31 + (zeroing ? 2 : 4)
            : n == 2 ? 40 + (zeroing ? 2 : 4)
                     : (zeroing ? 38 : 40) + (n - 3) * coreCycles;
        return c - 10; // state retention
    }
    c = n == 0   ? 24
        : n == 1 ? 39 + (2 + zeroPerGroup) * z
        : n == 2 ? 40 + (2 + zeroPerGroup * 2) * z
                 : 41 + (2 + zeroPerGroup * n) * z + (n - 3) * coreCycles;
    return c;
}

/// Tile cycles of a ConvPartial1x1Out vertex computing, for each of `numConvGroups` conv
/// groups, an m x k by k x n block on one tile (PopLibs' getConvPartial1x1SupervisorCycleEstimate,
/// whose supervisor loops over the conv groups of the one vertex a tile has): the m field
/// elements split over the workers; an inner pass costs numWorkers times the busiest worker (at
/// least the least busy + 14); the supervisor's 50 fixed cycles, once, and per conv group 12
/// plus its loops over input groups (15 + 1 each, 10 + 1 for the zeroing one) and output groups
/// (19 each, and per pass 6, or 7 when zeroing, plus the weight loads).
inline std::uint64_t convPartial1x1(const poplar::Target& target, const poplar::Type& inputType,
                                    const poplar::Type& partialsType, std::uint64_t m,
                                    std::uint64_t k, std::uint64_t n,
                                    std::uint64_t numConvGroups = 1,
                                    bool use128BitConvUnitLoad = false) {
    const unsigned workers = target.getNumWorkerContexts();
    const bool floatActs = inputType == poplar::FLOAT;
    const bool floatPartials = floatActs || partialsType == poplar::FLOAT;
    const unsigned units = numConvUnits(target, inputType);
    const unsigned inChans = weightsPerConvUnit(target, inputType);
    const std::uint64_t inGroups = (k + inChans - 1) / inChans;
    const std::uint64_t outGroups = (n + units - 1) / units;
    const std::uint64_t passesPerGroup = 1; // outChansPerGroup == numConvUnits
    const unsigned coreCycles = inChans / convUnitInputLoadElemsPerCycle(inputType);
    const std::uint64_t weightBytes = std::uint64_t(inChans) * target.getTypeSize(inputType);
    const std::uint64_t weightLoads =
        units * weightBytes / convUnitCoeffLoadBytesPerCycle(target, use128BitConvUnitLoad);
    const auto innerLoop = [&](bool zeroing) {
        std::uint64_t most = 0, least = ~std::uint64_t(0);
        const unsigned used = static_cast<unsigned>(std::min<std::uint64_t>(workers, m));
        for (unsigned w = 0; w < used; ++w) {
            const std::uint64_t elements = m / workers + (w < m % workers ? 1 : 0);
            const std::uint64_t c =
                workers *
                convPartial1x1WorkerCycles(elements, zeroing, floatActs, floatPartials, coreCycles);
            most = std::max(most, c);
            least = std::min(least, c);
        }
        if (used < workers)
            least = 0;
        return std::max(most, least + 14);
    };
    const std::uint64_t withZeroing = innerLoop(true), withoutZeroing = innerLoop(false);
    // HALF activations with FLOAT partials: state kept between passes costs 10, then 2 for each
    // further input group of every conv group.
    const std::uint64_t retention =
        (!floatActs && floatPartials) ? workers * (10 + 2 * (inGroups * numConvGroups - 1)) : 0;
    return 50 + retention +
           numConvGroups *
               (12 +
                (inGroups - 1) *
                    (15 + 1 +
                     outGroups * (19 + passesPerGroup * (6 + weightLoads + withoutZeroing))) +
                (10 + 1 + outGroups * (19 + passesPerGroup * (7 + weightLoads + withZeroing))));
}

/// The matrix-product block as the simulator's MultiVertex states it: every worker busy for
/// the vertex's tile cycles divided by the number of workers, in thread cycles.
inline std::uint64_t matMulBlock(const poplar::Target& target, const poplar::Type& inputType,
                                 const poplar::Type& partialsType, std::uint64_t m, std::uint64_t k,
                                 std::uint64_t n, bool use128BitConvUnitLoad = false) {
    const unsigned workers = target.getNumWorkerContexts();
    return (convPartial1x1(target, inputType, partialsType, m, k, n, 1, use128BitConvUnitLoad) +
            workers - 1) /
           workers;
}

/// A dynamic slice or update of `regions` regions, each copying `subElements` rows of
/// `regionSize` elements: reading the offset, then per row an address computation and one
/// vector load and store per thread cycle.
inline std::uint64_t dynamicSlice(const poplar::Target& target, const poplar::Type& type,
                                  std::uint64_t regions, std::uint64_t subElements,
                                  std::uint64_t regionSize) {
    return kVertexOverhead + 2 + regions * subElements * (2 + vectors(target, type, regionSize));
}

/// Scanning `rows` rows of `columns` values for the arg-max or arg-min (popnn::argMax,
/// calcAccuracy): a compare and select per element, plus the row's set-up and store. Modelled.
inline std::uint64_t rowScan(std::uint64_t rows, std::uint64_t columns) {
    return kVertexOverhead + rows * (2 + columns);
}

/// Random values: the tile's generator yields 64 random bits per thread cycle, so a uniform
/// draw costs one vector per cycle plus scaling; a normal draw transforms two draws with log,
/// sqrt and cos, costed as a transcendental function per element.
inline std::uint64_t randomValues(const poplar::Target& target, const poplar::Type& type,
                                  std::uint64_t elements, bool normal) {
    if (normal)
        return kVertexOverhead + elements * kTranscendentalCyclesPerElement;
    return kVertexOverhead + 2 * vectors(target, type, elements);
}

} // namespace tilescope::poplibs::cycles
