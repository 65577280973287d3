#pragma once
// Cycle estimates of the multiSlice and multiUpdate vertices, from PopLibs' public estimators
// (lib/popops/PerformanceEstimation.cpp: getMultiSliceCycleEstimate and
// getMultiUpdateOpCycleEstimate; lib/popops/popopsCycleEstimators.cpp: the MultiSlice,
// MultiUpdate and (Scaled)MultiUpdateOp vertex estimators). Like PopLibs' vertex estimators they
// assume the worst case, every index in range of the vertex.

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>

namespace tilescope::poplibs::cycles {

/// Prologue and epilogue of a MultiSlice worker (getMultiSliceCycleEstimate).
inline constexpr std::uint64_t kMultiSliceProAndEpilogue = 13;
/// Per in-range index of a MultiSlice worker: load, compare, branch, address (same source).
inline constexpr std::uint64_t kMultiSlicePerOffsetInRange = 19;
/// Per index outside the worker's entries: load, compare, skip (same source).
inline constexpr std::uint64_t kMultiSlicePerOffsetOutOfRange = 8;

/// Thread cycles of a MultiSlice (or MultiUpdate) worker copying `inRange` of its `numOffsets`
/// indices, slices of `elemsPerSlice` elements (getMultiSliceCycleEstimate, the form PopLibs'
/// embedding planner calls): PopLibs copies 4-byte elements a data path (64 bits) at a time in
/// 2 cycles, 2-byte elements two at a time in 2 cycles.
inline std::uint64_t multiSliceWorker(const poplar::Target& target, const poplar::Type& type,
                                      std::uint64_t elemsPerSlice, std::uint64_t numOffsets,
                                      std::uint64_t inRange) {
    const unsigned bytes = target.getTypeSize(type);
    const std::uint64_t vectorWidth = bytes == 2 ? 2 : target.getDataPathWidth() / (bytes * 8);
    const std::uint64_t cyclesPerVector = 2;
    const std::uint64_t vectors = (elemsPerSlice + vectorWidth - 1) / vectorWidth;
    inRange = std::min(inRange, numOffsets);
    return kMultiSliceProAndEpilogue +
           inRange * (kMultiSlicePerOffsetInRange + vectors * cyclesPerVector) +
           (numOffsets - inRange) * kMultiSlicePerOffsetOutOfRange;
}

/// The vertex estimator's form (popopsCycleEstimators.cpp, MultiSlice): the worst case, every
/// index in range.
inline std::uint64_t multiSliceWorker(const poplar::Target& target, const poplar::Type& type,
                                      std::uint64_t elemsPerSlice, std::uint64_t numOffsets) {
    return multiSliceWorker(target, type, elemsPerSlice, numOffsets, numOffsets);
}

/// Load the size, check for zero, exit (getMultiUpdateOpCycleEstimate).
inline constexpr std::uint64_t kMultiUpdateOpEntry = 3;
/// Set-up before the outer loop: 24 for FLOAT data, 25 otherwise; 2 more when scaled.
inline constexpr std::uint64_t kMultiUpdateOpSetupFloat = 24;
inline constexpr std::uint64_t kMultiUpdateOpSetupOther = 25;
inline constexpr std::uint64_t kMultiUpdateOpScaledSetup = 2;
/// Outer loop per in-range index: 11 for FLOAT, 12 otherwise (one more for a scaled HALF).
inline constexpr std::uint64_t kMultiUpdateOpPerOffsetFloat = 11;
inline constexpr std::uint64_t kMultiUpdateOpPerOffsetOther = 12;
/// Inner loop per atom (a unit of the atomic store granularity, 4 bytes) after the first.
inline constexpr std::uint64_t kMultiUpdateOpPerAtom = 3;
/// Per index outside the worker's entries (getMultiUpdateOpCycleEstimate).
inline constexpr std::uint64_t kMultiUpdateOpPerOffsetOutOfRange = 5;
/// The supervisor part of the vertex, in tile cycles.
inline constexpr std::uint64_t kMultiUpdateOpSupervisor = 25;

/// Thread cycles of one MultiUpdateOp worker (add or max) applying `inRange` of `numOffsets`
/// slices of `elemsPerSlice` elements (getMultiUpdateOpCycleEstimate, the planner's form); the
/// tile cost is numWorkerContexts times the busiest worker plus kMultiUpdateOpSupervisor.
inline std::uint64_t multiUpdateOpWorker(const poplar::Target& target, const poplar::Type& type,
                                         std::uint64_t elemsPerSlice, std::uint64_t numOffsets,
                                         std::uint64_t inRange, bool scaled) {
    std::uint64_t cycles = kMultiUpdateOpEntry;
    if (numOffsets == 0)
        return cycles;
    const bool isFloat = type == poplar::FLOAT;
    cycles += isFloat ? kMultiUpdateOpSetupFloat : kMultiUpdateOpSetupOther;
    if (scaled)
        cycles += kMultiUpdateOpScaledSetup;
    std::uint64_t perOffset = isFloat ? kMultiUpdateOpPerOffsetFloat : kMultiUpdateOpPerOffsetOther;
    if (!isFloat && scaled)
        perOffset += 1;
    const std::uint64_t bytesPerElem = target.getTypeSize(type);
    const std::uint64_t atomBytes =
        std::lcm<std::uint64_t>(target.getAtomicStoreGranularity(), bytesPerElem);
    const std::uint64_t elemsPerAtom = atomBytes / bytesPerElem;
    const std::uint64_t atoms =
        std::max<std::uint64_t>(1, (elemsPerSlice + elemsPerAtom - 1) / elemsPerAtom);
    perOffset += (atoms - 1) * kMultiUpdateOpPerAtom;
    inRange = std::min(inRange, numOffsets);
    return cycles + perOffset * inRange +
           kMultiUpdateOpPerOffsetOutOfRange * (numOffsets - inRange);
}

/// The vertex estimator's form: every index in range.
inline std::uint64_t multiUpdateOpWorker(const poplar::Target& target, const poplar::Type& type,
                                         std::uint64_t elemsPerSlice, std::uint64_t numOffsets,
                                         bool scaled) {
    return multiUpdateOpWorker(target, type, elemsPerSlice, numOffsets, numOffsets, scaled);
}

} // namespace tilescope::poplibs::cycles
