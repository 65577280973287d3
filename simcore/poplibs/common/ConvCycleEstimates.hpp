#pragma once
// Cycle estimates of poplin's convolution-partial vertices, following PopLibs' public estimators
// (lib/poplin/PerformanceEstimation.hpp: getConvPartialnx1SupervisorCycleEstimate,
// getConvPartialHorizontalMacSupervisorCycleEstimate, getDenseDotProductCycles and, from the
// version with ConvPartial1x4SLIC, getConvPartialSlicSupervisor*Estimate) with the AMP
// parameters of CycleEstimates.hpp (numConvUnits, weightsPerConvUnit,
// convUnitInputLoadElemsPerCycle, convUnitCoeffLoadBytesPerCycle); ConvPartial1x1Out is
// cycles::convPartial1x1 there. Results are tile cycles (supervisor cycles) of one vertex.
//
// A vertex's work is described as PopLibs' worklists describe it: per worker context and per
// kernel position, the lengths of the output rows (runs along the innermost field dimension) it
// computes.

#include "common/CycleEstimates.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace tilescope::poplibs::cycles {

/// Rows of a vertex's output shared among the workers as PopLibs' partitioner deals them:
/// `rows` rows of `rowLength` elements each, worker w taking rows w, w + workers, ...; for every
/// one of `kernelPositions` kernel positions the same partition.
inline std::vector<std::vector<std::vector<unsigned>>>
convWorkerPartitions(unsigned workers, std::uint64_t rows, unsigned rowLength,
                     std::uint64_t kernelPositions) {
    const unsigned used = static_cast<unsigned>(std::min<std::uint64_t>(workers, rows));
    std::vector<std::vector<std::vector<unsigned>>> parts(used);
    for (unsigned w = 0; w < used; ++w) {
        const std::uint64_t mine = rows / workers + (w < rows % workers ? 1 : 0);
        parts[w].assign(kernelPositions, std::vector<unsigned>(mine, rowLength));
    }
    return parts;
}

/// PopLibs' getDenseDotProductCycles: a dot product of `size` elements on one worker. FLOAT: 4
/// + size / 2 for an even size (64-bit loads), 4 + size otherwise; HALF: 6 + size / 4 for a
/// multiple of 4, 4 + size otherwise.
inline std::uint64_t denseDotProduct(bool isFloat, std::uint64_t size) {
    if (isFloat)
        return 4 + (size % 2 == 0 ? size / 2 : size);
    return size % 4 == 0 ? 6 + size / 4 : 4 + size;
}

/// ConvPartialHorizontalMac: each worker, per kernel position, 16 cycles plus per row 7 (empty)
/// or 19 + length * (7 + outChans * dot(inChans)), plus 16 outside its loops; the supervisor
/// takes numWorkers times the busiest worker (or the least busy when all are used) and adds
/// 62 + groups * (21 + inGroups * (15 + outGroups * (10 + inner))).
inline std::uint64_t
convPartialHorizontalMac(const poplar::Target& target, const poplar::Type& inputType,
                         const std::vector<std::vector<std::vector<unsigned>>>& partitions,
                         unsigned numConvGroups, unsigned numInGroups, unsigned numOutGroups,
                         unsigned inChansPerGroup, unsigned outChansPerGroup) {
    const unsigned workers = target.getNumWorkerContexts();
    const bool isFloat = inputType == poplar::FLOAT;
    std::uint64_t most = 0;
    std::uint64_t least =
        partitions.size() < workers ? 0 : std::numeric_limits<std::uint64_t>::max();
    for (const auto& worker : partitions) {
        std::uint64_t c = 0;
        for (const auto& rows : worker) {
            c += 16;
            for (unsigned length : rows)
                c += length == 0
                         ? 7
                         : 19 + length * (7 + outChansPerGroup *
                                                  denseDotProduct(isFloat, inChansPerGroup));
        }
        c += 16;
        most = std::max(most, workers * c);
        least = std::min(least, workers * c);
    }
    const std::uint64_t inner = std::max(most, least);
    return 62 + std::uint64_t(numConvGroups) *
                    (21 + numInGroups * (15 + std::uint64_t(numOutGroups) * (10 + inner)));
}

/// ConvPartialnx1 on the AMP units (conv unit weight height 1): per kernel position and output
/// channel pass, the supervisor loads the weights (input load elements per cycle x 4 loads x
/// conv units x bytes per weight / coefficient load bytes per cycle, + 15) and waits for the
/// workers: each 19 plus per row 18 (empty), 30, 34 or 35 + 4 per element beyond 3; numWorkers
/// times the busiest (at least the least busy + 9); plus 15 per outer and 13 per inner kernel
/// element. Then 93 + groups * (15 + outGroups * (16 + inGroups * (16 + inner))).
inline std::uint64_t
convPartialnx1(const poplar::Target& target, const poplar::Type& inputType,
               const std::vector<std::vector<std::vector<unsigned>>>& partitions,
               unsigned kernelInnerElems, unsigned kernelOuterElems, unsigned numConvGroups,
               unsigned numOutGroups, unsigned numInGroups, bool use128BitConvUnitLoad = false) {
    const unsigned workers = target.getNumWorkerContexts();
    const unsigned convUnits = numConvUnits(target, inputType);
    const std::uint64_t loads = std::uint64_t(convUnitInputLoadElemsPerCycle(inputType)) * 4 *
                                convUnits * (inputType == poplar::FLOAT ? 4 : 2) /
                                convUnitCoeffLoadBytesPerCycle(target, use128BitConvUnitLoad);
    const std::uint64_t innermost = loads + 15; // filter height 1
    const unsigned outChanPasses = 1;           // outChansPerGroup == numConvUnits
    std::uint64_t inner = 0;
    for (unsigned ky = 0; ky < kernelOuterElems; ++ky) {
        inner += 15;
        for (unsigned kx = 0; kx < kernelInnerElems; ++kx) {
            inner += 18 - 5;
            const unsigned k = ky * kernelInnerElems + kx;
            for (unsigned pass = 0; pass < outChanPasses; ++pass) {
                std::uint64_t most = 0;
                std::uint64_t least =
                    partitions.size() < workers ? 0 : std::numeric_limits<std::uint64_t>::max();
                for (const auto& worker : partitions) {
                    std::uint64_t c = 19;
                    for (unsigned n : worker[k])
                        c += n == 0 ? 18 : n == 1 ? 30 : n == 2 ? 34 : 35 + (n - 3) * 4;
                    most = std::max(most, workers * c);
                    least = std::min(least, workers * c);
                }
                inner += innermost + std::max(most, least + 9);
            }
        }
    }
    return 93 + std::uint64_t(numConvGroups) *
                    (15 + numOutGroups * (16 + std::uint64_t(numInGroups) * (16 + inner)));
}

/// ConvPartial1x4SLIC's weight loads per sub-kernel (PopLibs'
/// getConvPartialSlicSupervisorWeightLoadCycleEstimate, 1x4 window): 16 64-bit loads into the
/// conv units, plus 18 with one conv group a group (branch, the CCCSLOAD pointer, return) or,
/// with 2 or 4 grouped, 21 of supervisor work and the workers rearranging the weights (12 or 10
/// cycles each).
inline std::uint64_t convSlicWeightLoad(unsigned workers, unsigned convGroupsPerGroup) {
    std::uint64_t c = 16;
    if (convGroupsPerGroup == 1)
        c += 6 + 6 + 6;
    else
        c += 9 + 6 + std::uint64_t(convGroupsPerGroup == 4 ? 10 : 12) * workers + 6;
    return c;
}

/// ConvPartial1x4SLIC's workers over one sub-kernel (PopLibs'
/// getConvPartialSlicSupervisorInnerLoopCycleEstimate): `rows[w]` the output row lengths worker w
/// computes. Each worker 17 cycles of preamble, per row 10 (+1 when zeroing implicitly, the first
/// sub-kernel) plus the row's loop by its length and output stride, once per input pass (1 with
/// 16 conv units, 2 with 8), 3 more and 1 less a row with FLOAT partials; the 8-unit HALF-partials
/// variant has its own constants and merges its two outputs. numWorkers times the busiest.
inline std::uint64_t convSlicInner(const std::vector<std::vector<unsigned>>& rows, unsigned workers,
                                   unsigned convUnits, bool floatPartials, unsigned outStride,
                                   bool implicitZeroing) {
    const std::int64_t passes = convUnits == 16 ? 1 : 2;
    const bool half8 = convUnits == 8 && !floatPartials;
    const std::int64_t threshold = half8 ? 6 : 5;
    const std::int64_t preamble = 2 + (half8 ? 2 : 3) + 1 + 2 + 4 + 2 + 2 + 1 + (half8 ? 1 : 0);
    std::int64_t busiest = 0, fieldElems = 0;
    for (const auto& worker : rows) {
        std::int64_t c = preamble;
        for (unsigned length : worker) {
            const std::int64_t n = length;
            c += (half8 ? 9 : 10) + (implicitZeroing ? 1 : 0);
            std::int64_t row = 0;
            if (outStride == 1) {
                if (n < threshold) {
                    if (implicitZeroing)
                        row = 10 + (n > 1 ? n : 0) + 3;
                    else
                        row = n == 1 ? 7 + 6 : 7 + 1 + (n - 1) + 2 + (4 - n) + 2 + (n - 1) + 3;
                } else {
                    row = 15 + (n - 5) + (!implicitZeroing && half8 ? 3 : 0);
                }
            } else {
                row = n < 3 ? 7 + (n == 1 ? 3 : 5) + 3 : 15 + 2 * (n - 3);
            }
            if (floatPartials)
                row -= 1;
            c += (floatPartials ? 3 : 0) + row * passes;
            fieldElems += n;
        }
        c += half8 ? 2 : 0;
        busiest = std::max(busiest, c);
    }
    const std::int64_t copy = half8 && implicitZeroing ? 2 + 2 * fieldElems : 0;
    return static_cast<std::uint64_t>(busiest * workers + copy);
}

/// ConvPartial1x4SLIC (PopLibs' getConvPartialSlicSupervisorOuterLoopCycleEstimate): 28 cycles
/// of preamble (25 for the 8-unit HALF-partials variant), the supervisor's loop over the conv
/// group groups (15 or 12 each, 6 per taken branch), its loop over the sub-kernels (the weight
/// loads and 19 or 15 of pointers, run and sync each, 6 per taken branch), and the workers: per
/// conv group group one implicitly zeroing pass and one pass for every further sub-kernel.
inline std::uint64_t convPartialSlic(std::uint64_t zeroingInner, std::uint64_t inner,
                                     std::uint64_t weightLoad, std::uint64_t convGroupGroups,
                                     std::uint64_t subKernels, unsigned convUnits,
                                     bool floatPartials) {
    const bool half8 = convUnits == 8 && !floatPartials;
    const std::uint64_t preamble = half8 ? 25 : 28;
    const std::uint64_t groupLoop =
        (half8 ? 12 : 15) * convGroupGroups + 6 * (convGroupGroups - 1) + 1;
    const std::uint64_t subKernelBody =
        weightLoad + (half8 ? 0 : 3) + 2 + (half8 ? 0 : 1) + 6 + 6 + 1;
    const std::uint64_t subKernelLoop = subKernelBody * subKernels + 6 * (subKernels - 1) + 1;
    return preamble + groupLoop + subKernelLoop + convGroupGroups * zeroingInner +
           convGroupGroups * (subKernels - 1) * inner;
}

/// poplin::ReduceAdd, the supervisor vertex that sums a convolution's partials on one tile:
/// `outputs` results of `partials` partials each, PopLibs' getReduceCycleEstimate (its
/// supervisor form): 32 cycles, then per worker loop of 4 FLOAT (8 HALF) partials' results
/// 3 cycles per partial plus 7 (FLOAT partials into FLOAT; 6 into HALF) or 9 (HALF partials
/// into FLOAT; 8 into HALF); a last, shorter loop of 2 per partial plus 13 (11) when some
/// workers are left over and the outputs are not a multiple of the vector; numWorkers times it.
inline std::uint64_t convReduceAdd(const poplar::Target& target, const poplar::Type& outType,
                                   const poplar::Type& partialsType, std::uint64_t outputs,
                                   std::uint64_t partials) {
    const unsigned workers = target.getNumWorkerContexts();
    const bool floatPartials = partialsType == poplar::FLOAT;
    const bool floatOut = outType == poplar::FLOAT;
    const std::uint64_t vector = floatPartials ? 4 : 8;
    std::uint64_t loops = outputs / vector;
    for (std::uint64_t bit = 1; bit < vector; bit <<= 1)
        if (outputs & bit)
            ++loops;
    std::uint64_t perWorker = loops / workers;
    std::uint64_t c = 32;
    if (loops % workers) {
        if (outputs % vector)
            c += 2 * partials + (floatPartials ? 13 : 11);
        else
            ++perWorker;
    }
    const std::uint64_t perLoop = floatPartials ? (floatOut ? 7 : 6) : (floatOut ? 9 : 8);
    c += (3 * partials + perLoop) * perWorker;
    return c * workers;
}

/// Casting a convolution's partials to the output type (the cast compute set of a product that
/// needs no reduction), PopLibs' getCastCycleEstimate: each worker loads its share a vector of
/// the partials' type at a time and stores a vector of the output's, 26 cycles more; numWorkers
/// times it.
inline std::uint64_t convPartialsCast(const poplar::Target& target, const poplar::Type& outType,
                                      const poplar::Type& partialsType, std::uint64_t outputs) {
    const unsigned workers = target.getNumWorkerContexts();
    const std::uint64_t perWorker = (outputs + workers - 1) / workers;
    const std::uint64_t loadWidth = target.getVectorWidth(partialsType);
    const std::uint64_t storeWidth = target.getVectorWidth(outType);
    const std::uint64_t c = std::max((perWorker + loadWidth - 1) / loadWidth,
                                     (perWorker + storeWidth - 1) / storeWidth);
    return (c + 26) * workers;
}

} // namespace tilescope::poplibs::cycles
