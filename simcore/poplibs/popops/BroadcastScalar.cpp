#include "popops/BroadcastScalar.hpp"

#include "common/ElementWiseBuilder.hpp"
#include "popops/ElementWiseCycles.hpp"

#include <algorithm>
#include <vector>

namespace popops::detail {

namespace pl = tilescope::poplibs;
using poplar::Interval;
using poplar::Tensor;
using Region = std::vector<Interval>; // flat intervals contiguous in memory

namespace {

std::size_t sizeOf(const Region& region) {
    std::size_t n = 0;
    for (const auto& i : region)
        n += i.size();
    return n;
}

/// `regions` cut into consecutive shares of at most `chunk` elements (PopLibs'
/// splitRegionsBetweenWorkers): a share holds whole regions and pieces of them.
std::vector<std::vector<Region>> shares(const std::vector<Region>& regions, std::size_t chunk) {
    std::vector<std::vector<Region>> out(1);
    std::size_t filled = 0;
    for (const auto& region : regions) {
        bool started = false; // whether this region already has a piece in the current share
        for (const auto& i : region) {
            std::size_t begin = i.begin();
            while (begin < i.end()) {
                if (filled == chunk) {
                    out.emplace_back();
                    filled = 0;
                    started = false;
                }
                const std::size_t end = std::min(i.end(), begin + (chunk - filled));
                if (!started)
                    out.back().emplace_back();
                out.back().back().emplace_back(begin, end);
                started = true;
                filled += end - begin;
                begin = end;
            }
        }
    }
    return out;
}

/// The elements of `region` of `flat`, in the region's (memory) order.
Tensor elementsOf(const Tensor& flat, const Region& region) {
    std::vector<Tensor> parts;
    parts.reserve(region.size());
    for (const auto& i : region)
        parts.push_back(flat.slice(i.begin(), i.end()));
    return poplar::concat(parts);
}

} // namespace

void addBroadcastScalarVertices(poplar::Graph& graph, poplar::ComputeSet cs, expr::BinaryOpType op,
                                const Tensor& data, const Tensor& scalar, const Tensor& out,
                                const std::string& vertex1D, const std::string& vertex2D) {
    const bool inPlace = !out.valid();
    const Tensor dataFlat = data.flatten();
    const Tensor outFlat = inPlace ? dataFlat : out.flatten();
    const auto& target = graph.getTarget();
    const poplar::Type type = data.elementType();
    const std::size_t workers = target.getNumWorkerContexts();
    const std::size_t vectorWidth = target.getVectorWidth(type);
    // PopLibs' grain for splitting regions between workers: max(vector width, atomic store
    // granularity), at least two grains a worker.
    const std::size_t grain =
        std::max<std::size_t>(vectorWidth, target.getAtomicStoreGranularity());
    const auto mapping = graph.getTileMapping(inPlace ? data : out);
    for (unsigned tile = 0; tile < mapping.size(); ++tile) {
        if (mapping[tile].empty())
            continue;
        // The tile's data in regions contiguous in memory, as PopLibs walks it.
        const auto regions = pl::contiguousRegions(outFlat, mapping[tile]);
        std::size_t total = 0;
        std::uint64_t cycles1D = 0;
        for (const auto& r : regions) {
            total += sizeOf(r);
            cycles1D +=
                pl::cycles::broadcastScalar1DVertexCycles(target, op, type, inPlace, sizeOf(r));
        }
        const std::size_t grains = (total + grain - 1) / grain;
        const std::size_t chunk =
            std::max((grains + workers - 1) / workers * grain, std::min(total, 2 * grain));
        const auto workerShares = shares(regions, chunk);
        // The worker with the most regions sets the 2D estimate (PopLibs' heuristic).
        std::size_t busiest = 0;
        for (std::size_t w = 1; w < workerShares.size(); ++w)
            if (workerShares[w].size() > workerShares[busiest].size())
                busiest = w;
        std::vector<std::uint64_t> busiestSizes;
        for (const auto& r : workerShares[busiest])
            busiestSizes.push_back(sizeOf(r));
        const std::uint64_t cycles2D =
            pl::cycles::broadcastScalar2DWorkerCycles(target, op, type, inPlace, busiestSizes);
        if (cycles1D < cycles2D * workers) {
            // One MultiVertex per region: its workers take chunks of the vector width.
            for (const auto& r : regions) {
                const std::size_t n = sizeOf(r);
                const std::size_t perWorker = (n + workers - 1) / workers;
                const std::size_t step = (perWorker + vectorWidth - 1) / vectorWidth * vectorWidth;
                for (const auto& share : shares({r}, step)) {
                    poplar::VertexRef v = graph.addVertex(cs, vertex1D);
                    graph.connect(v["data"], elementsOf(dataFlat, share.front()));
                    if (!inPlace)
                        graph.connect(v["out"], elementsOf(outFlat, share.front()));
                    graph.connect(v["B"], scalar);
                    graph.setTileMapping(v, tile);
                    graph.setPerfEstimate(v, pl::cycles::broadcastScalar1DWorkerCycles(
                                                 target, op, type, inPlace, sizeOf(share.front())));
                }
            }
            continue;
        }
        for (const auto& share : workerShares) {
            std::vector<Tensor> dataItems, outItems;
            std::vector<std::uint64_t> sizes;
            for (const auto& r : share) {
                dataItems.push_back(elementsOf(dataFlat, r));
                if (!inPlace)
                    outItems.push_back(elementsOf(outFlat, r));
                sizes.push_back(sizeOf(r));
            }
            poplar::VertexRef v = graph.addVertex(cs, vertex2D);
            graph.connect(v["data"], poplar::ArrayRef<Tensor>(dataItems));
            if (!inPlace)
                graph.connect(v["out"], poplar::ArrayRef<Tensor>(outItems));
            graph.connect(v["B"], scalar);
            graph.setTileMapping(v, tile);
            graph.setPerfEstimate(
                v, pl::cycles::broadcastScalar2DWorkerCycles(target, op, type, inPlace, sizes));
        }
    }
}

} // namespace popops::detail
