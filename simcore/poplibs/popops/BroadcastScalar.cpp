#include "popops/BroadcastScalar.hpp"

#include "popops/ElementWiseCycles.hpp"

#include <algorithm>
#include <vector>

namespace popops::detail {

namespace pl = tilescope::poplibs;
using poplar::Interval;
using poplar::Tensor;

namespace {

/// `regions` cut into consecutive shares of at most `chunk` elements (PopLibs'
/// splitRegionsBetweenWorkers): a share holds whole regions and pieces of them.
std::vector<std::vector<Interval>> shares(const std::vector<Interval>& regions, std::size_t chunk) {
    std::vector<std::vector<Interval>> out(1);
    std::size_t filled = 0;
    for (const auto& i : regions) {
        std::size_t begin = i.begin();
        while (begin < i.end()) {
            if (filled == chunk) {
                out.emplace_back();
                filled = 0;
            }
            const std::size_t end = std::min(i.end(), begin + (chunk - filled));
            out.back().emplace_back(begin, end);
            filled += end - begin;
            begin = end;
        }
    }
    return out;
}

std::size_t sizeOf(const std::vector<Interval>& intervals) {
    std::size_t n = 0;
    for (const auto& i : intervals)
        n += i.size();
    return n;
}

/// The elements of `intervals` as a list of runs, one tensor per interval of `flat`.
std::vector<Tensor> runs(const Tensor& flat, const std::vector<Interval>& intervals) {
    std::vector<Tensor> out;
    out.reserve(intervals.size());
    for (const auto& i : intervals)
        out.push_back(flat.slice(i.begin(), i.end()));
    return out;
}

Tensor joined(const Tensor& flat, const std::vector<Interval>& intervals) {
    return poplar::concat(runs(flat, intervals));
}

} // namespace

void addBroadcastScalarVertices(poplar::Graph& graph, poplar::ComputeSet cs, expr::BinaryOpType op,
                                const Tensor& data, const Tensor& scalar, const Tensor& out,
                                const std::string& vertex1D, const std::string& vertex2D) {
    const bool inPlace = !out.valid();
    const Tensor& mapped = inPlace ? data : out;
    const Tensor dataFlat = data.flatten();
    const Tensor outFlat = inPlace ? Tensor() : out.flatten();
    const auto& target = graph.getTarget();
    const poplar::Type type = data.elementType();
    const std::size_t workers = target.getNumWorkerContexts();
    const std::size_t vectorWidth = target.getVectorWidth(type);
    // PopLibs' grain for splitting regions between workers: max(vector width, atomic store
    // granularity), at least two grains a worker.
    const std::size_t grain =
        std::max<std::size_t>(vectorWidth, target.getAtomicStoreGranularity());
    const auto mapping = graph.getTileMapping(mapped);
    for (unsigned tile = 0; tile < mapping.size(); ++tile) {
        if (mapping[tile].empty())
            continue;
        // Contiguous regions: intervals that follow one another in the tensor, merged.
        std::vector<Interval> regions;
        for (const auto& i : mapping[tile]) {
            if (!regions.empty() && regions.back().end() == i.begin())
                regions.back() = Interval(regions.back().begin(), i.end());
            else
                regions.push_back(i);
        }
        std::size_t total = 0;
        std::uint64_t cycles1D = 0;
        for (const auto& r : regions) {
            total += r.size();
            cycles1D +=
                pl::cycles::broadcastScalar1DVertexCycles(target, op, type, inPlace, r.size());
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
        for (const auto& i : workerShares[busiest])
            busiestSizes.push_back(i.size());
        const std::uint64_t cycles2D =
            pl::cycles::broadcastScalar2DWorkerCycles(target, op, type, inPlace, busiestSizes);
        if (cycles1D < cycles2D * workers) {
            // One MultiVertex per region: its workers take chunks of the vector width.
            for (const auto& r : regions) {
                const std::size_t n = r.size();
                const std::size_t perWorker = (n + workers - 1) / workers;
                const std::size_t step = (perWorker + vectorWidth - 1) / vectorWidth * vectorWidth;
                for (const auto& piece : shares({r}, step)) {
                    poplar::VertexRef v = graph.addVertex(cs, vertex1D);
                    graph.connect(v["data"], joined(dataFlat, piece));
                    if (!inPlace)
                        graph.connect(v["out"], joined(outFlat, piece));
                    graph.connect(v["B"], scalar);
                    graph.setTileMapping(v, tile);
                    graph.setPerfEstimate(v, pl::cycles::broadcastScalar1DWorkerCycles(
                                                 target, op, type, inPlace, sizeOf(piece)));
                }
            }
            continue;
        }
        for (const auto& share : workerShares) {
            poplar::VertexRef v = graph.addVertex(cs, vertex2D);
            graph.connect(v["data"], poplar::ArrayRef<Tensor>(runs(dataFlat, share)));
            if (!inPlace)
                graph.connect(v["out"], poplar::ArrayRef<Tensor>(runs(outFlat, share)));
            graph.connect(v["B"], scalar);
            graph.setTileMapping(v, tile);
            std::vector<std::uint64_t> sizes;
            for (const auto& i : share)
                sizes.push_back(i.size());
            graph.setPerfEstimate(
                v, pl::cycles::broadcastScalar2DWorkerCycles(target, op, type, inPlace, sizes));
        }
    }
}

} // namespace popops::detail
