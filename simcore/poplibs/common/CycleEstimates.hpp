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
// The remaining constants (per-vertex overheads, transcendental costs) are modelled figures of
// the right order, not measurements.

#include <algorithm>
#include <cstdint>
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

/// Reducing `outputs` results from `partialsPerOutput` partial values each: one vector of
/// partials loaded and accumulated per thread cycle, plus a store per output; a scaled reduction
/// (ReduceParams::scale) multiplies each output once more.
inline std::uint64_t reduce(const poplar::Target& target, const poplar::Type& partialsType,
                            std::uint64_t outputs, std::uint64_t partialsPerOutput,
                            bool scaled = false) {
    return kVertexOverhead +
           outputs * (1 + vectors(target, partialsType, partialsPerOutput) + (scaled ? 1 : 0));
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

/// A block matrix product of m x k by k x n on the AMP units of one tile, run by one MultiVertex
/// over all workers: the tile cycles at the AMP rate, plus a pipeline fill per output row,
/// expressed in thread cycles (tile cycles / workers).
inline std::uint64_t matMulBlock(const poplar::Target& target, const poplar::Type& inputType,
                                 std::uint64_t m, std::uint64_t k, std::uint64_t n) {
    const std::uint64_t macs = m * k * n;
    const std::uint64_t rate = ampMacsPerTileCycle(inputType);
    const std::uint64_t tileCycles = (macs + rate - 1) / rate + 16 * m;
    const unsigned workers = target.getNumWorkerContexts();
    return kVertexOverhead + (tileCycles + workers - 1) / workers;
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
