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

/// Thread cycles of a MultiSlice (or MultiUpdate) worker copying `numOffsets` slices of
/// `elemsPerSlice` elements: PopLibs copies 4-byte elements a data path (64 bits) at a time in 2
/// cycles, 2-byte elements two at a time in 2 cycles.
inline std::uint64_t multiSliceWorker(const poplar::Target& target, const poplar::Type& type,
                                      std::uint64_t elemsPerSlice, std::uint64_t numOffsets) {
    const unsigned bytes = target.getTypeSize(type);
    const std::uint64_t vectorWidth = bytes == 2 ? 2 : target.getDataPathWidth() / (bytes * 8);
    const std::uint64_t cyclesPerVector = 2;
    const std::uint64_t vectors = (elemsPerSlice + vectorWidth - 1) / vectorWidth;
    return kMultiSliceProAndEpilogue +
           numOffsets * (kMultiSlicePerOffsetInRange + vectors * cyclesPerVector);
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
/// The supervisor part of the vertex, in tile cycles.
inline constexpr std::uint64_t kMultiUpdateOpSupervisor = 25;

/// Thread cycles of one MultiUpdateOp worker (add or max) applying `numOffsets` slices of
/// `elemsPerSlice` elements; the tile cost is numWorkerContexts times the busiest worker plus
/// kMultiUpdateOpSupervisor, as PopLibs' estimator returns.
inline std::uint64_t multiUpdateOpWorker(const poplar::Target& target, const poplar::Type& type,
                                         std::uint64_t elemsPerSlice, std::uint64_t numOffsets,
                                         bool scaled) {
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
    return cycles + perOffset * numOffsets;
}

} // namespace tilescope::poplibs::cycles
