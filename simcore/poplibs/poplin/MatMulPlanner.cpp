#include "poplin/MatMulPlanner.hpp"

#include "common/CycleEstimates.hpp"

#include <algorithm>

namespace tilescope::poplibs {

namespace {

std::size_t ceilDiv(std::size_t a, std::size_t b) {
    return (a + b - 1) / b;
}

// The planner's own cost model, kept from before the vertex estimates followed PopLibs'
// estimators so that it chooses the same splits (and so the same summation order: results stay
// bit-identical). It ranks plans only; the compiled program's cycles come from the vertices'
// estimates (cycles::matMulBlock, cycles::reduceContinuous).
/// AMP thread cycles of an m x k x n block: the multiply-accumulates at the peak rate plus a
/// pipeline fill per output row, spread over the workers.
std::uint64_t planningBlockCycles(const poplar::Target& target, const poplar::Type& inputType,
                                  std::uint64_t m, std::uint64_t k, std::uint64_t n) {
    const std::uint64_t rate = cycles::ampMacsPerTileCycle(inputType);
    const std::uint64_t tileCycles = (m * k * n + rate - 1) / rate + 16 * m;
    const unsigned workers = target.getNumWorkerContexts();
    return cycles::kVertexOverhead + (tileCycles + workers - 1) / workers;
}
/// Thread cycles of one worker reducing `outputs` results of `partials` partials each.
std::uint64_t planningReduceCycles(const poplar::Target& target, const poplar::Type& type,
                                   std::uint64_t outputs, std::uint64_t partials) {
    return cycles::kVertexOverhead + outputs * (1 + cycles::vectors(target, type, partials));
}

} // namespace

std::string MatMulPlan::describe() const {
    return "split M/K/N " + std::to_string(splitM) + "/" + std::to_string(splitK) + "/" +
           std::to_string(splitN) + ", block " + std::to_string(blockM) + "x" +
           std::to_string(blockK) + "x" + std::to_string(blockN);
}

MatMulPlan planMatMul(const poplar::Target& target, const poplar::Type& inputType,
                      const poplar::Type& partialsType, std::size_t M, std::size_t K, std::size_t N,
                      double availableMemoryProportion) {
    const std::size_t tiles = target.getNumTiles();
    const std::uint64_t workers = target.getNumWorkerContexts();
    const std::uint64_t inBytes = target.getTypeSize(inputType);
    const std::uint64_t partialBytes = target.getTypeSize(partialsType);
    const std::uint64_t exchangeRate = target.spec().exchangeBytesPerCycle;
    const auto limit =
        static_cast<std::uint64_t>(availableMemoryProportion * double(target.getBytesPerTile()));

    MatMulPlan best, smallest;
    bool haveBest = false, haveSmallest = false;
    for (std::size_t sm = 1; sm <= std::min(M, tiles); ++sm) {
        const std::size_t bm = ceilDiv(M, sm);
        if (sm > 1 && ceilDiv(M, sm - 1) == bm)
            continue; // same block size as a smaller split: only wastes tiles
        for (std::size_t sn = 1; sn <= std::min(N, tiles / sm); ++sn) {
            const std::size_t bn = ceilDiv(N, sn);
            if (sn > 1 && ceilDiv(N, sn - 1) == bn)
                continue;
            for (std::size_t sk = 1; sk <= std::min(K, tiles / (sm * sn)); ++sk) {
                const std::size_t bk = ceilDiv(K, sk);
                if (sk > 1 && ceilDiv(K, sk - 1) == bk)
                    continue;
                MatMulPlan p;
                p.splitM = sm, p.splitK = sk, p.splitN = sn;
                p.blockM = bm, p.blockK = bk, p.blockN = bn;
                // Each tile receives its A and B blocks and, holding a share of the blocks its
                // row and column of the plan read, sends about as much: exchange cycles count
                // bytes sent plus received. Then it computes on the AMP units and, with a split
                // reduction, each output element gathers and sums splitK partials.
                const std::uint64_t exchange = 2 * (bm * bk + bk * bn) * inBytes / exchangeRate;
                const std::uint64_t amp =
                    workers * planningBlockCycles(target, inputType, bm, bk, bn);
                std::uint64_t reduction = 0;
                const bool partials = sk > 1;
                if (partials) {
                    const std::uint64_t outputsPerTile = ceilDiv(M * N, tiles);
                    const std::uint64_t perWorker = ceilDiv(outputsPerTile, workers);
                    reduction =
                        workers * planningReduceCycles(target, partialsType, perWorker, sk) +
                        outputsPerTile * sk * partialBytes / exchangeRate;
                }
                p.estimatedCycles = exchange + amp + reduction;
                p.bytesPerTile = (bm * bk + bk * bn) * inBytes + bm * bn * partialBytes;
                p.fitsMemory = p.bytesPerTile <= limit;
                if (p.fitsMemory && (!haveBest || p.estimatedCycles < best.estimatedCycles)) {
                    best = p;
                    haveBest = true;
                }
                if (!haveSmallest || p.bytesPerTile < smallest.bytesPerTile) {
                    smallest = p;
                    haveSmallest = true;
                }
            }
        }
    }
    return haveBest ? best : smallest;
}

} // namespace tilescope::poplibs
