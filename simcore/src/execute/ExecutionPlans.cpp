#include "ExecutionPlans.hpp"

#include <algorithm>

namespace tilescope::sim {

std::vector<std::uint32_t> balancedChunks(const std::vector<std::uint64_t>& weights,
                                          std::size_t maxChunks) {
    std::vector<std::uint32_t> starts{0};
    std::uint64_t total = 0;
    for (auto w : weights)
        total += w;
    if (total == 0) {
        starts.push_back(static_cast<std::uint32_t>(weights.size()));
        return starts;
    }
    const std::size_t chunks = std::max<std::size_t>(1, std::min(maxChunks, weights.size()));
    const std::uint64_t target = (total + chunks - 1) / chunks;
    std::uint64_t acc = 0;
    for (std::size_t i = 0; i < weights.size(); ++i) {
        acc += weights[i];
        if (acc >= target && i + 1 < weights.size()) {
            starts.push_back(static_cast<std::uint32_t>(i + 1));
            acc = 0;
        }
    }
    starts.push_back(static_cast<std::uint32_t>(weights.size()));
    return starts;
}

ComputeSetPlan planComputeSet(const std::vector<TileVertexGroup>& groups,
                              const std::vector<VertexInstance>& vertices,
                              std::vector<Staging>& stagings, unsigned workers,
                              std::size_t maxChunks) {
    ComputeSetPlan plan;
    std::vector<std::uint64_t> groupWeights, remoteWeights;
    std::vector<std::uint32_t> groupStart, remoteGroupStart;
    for (const auto& g : groups) {
        groupStart.push_back(static_cast<std::uint32_t>(plan.calls.size()));
        remoteGroupStart.push_back(static_cast<std::uint32_t>(plan.remoteIn.size()));
        std::uint64_t weight = 0, remoteWeight = 0;
        for (auto id : g.vertices) {
            const auto& inst = vertices[id];
            const auto& info = inst.type->info;
            VertexCall call;
            call.object = inst.object;
            call.compute = info.compute;
            call.workers = info.isMultiVertex ? workers : 1;
            call.id = id;
            call.tile = g.tile;
            call.firstIn = static_cast<std::uint32_t>(plan.localIn.size());
            call.firstOut = static_cast<std::uint32_t>(plan.localOut.size());
            for (auto si : inst.stagings) {
                auto& st = stagings[si];
                if (st.remote) {
                    if (st.in) {
                        plan.remoteIn.push_back(&st);
                        remoteWeight += st.buffer.size();
                    }
                    continue;
                }
                if (st.in)
                    plan.localIn.push_back(&st);
                if (st.out)
                    plan.localOut.push_back(&st);
            }
            call.endIn = static_cast<std::uint32_t>(plan.localIn.size());
            call.endOut = static_cast<std::uint32_t>(plan.localOut.size());
            plan.calls.push_back(call);
            // A vertex costs a call even with no edges.
            weight += 16 + inst.edgeElements;
        }
        groupWeights.push_back(weight);
        remoteWeights.push_back(remoteWeight);
    }
    groupStart.push_back(static_cast<std::uint32_t>(plan.calls.size()));
    remoteGroupStart.push_back(static_cast<std::uint32_t>(plan.remoteIn.size()));
    for (auto c : balancedChunks(groupWeights, maxChunks))
        plan.chunkStart.push_back(groupStart[c]);
    if (!plan.remoteIn.empty())
        for (auto c : balancedChunks(remoteWeights, maxChunks))
            plan.remoteInChunkStart.push_back(remoteGroupStart[c]);
    // Remote outputs in tile order, so overlapping remote writes resolve the same way on every
    // run.
    for (const auto& g : groups)
        for (auto id : g.vertices)
            for (auto si : vertices[id].stagings)
                if (stagings[si].remote && stagings[si].out)
                    plan.remoteOut.push_back(&stagings[si]);
    return plan;
}

void planCopy(const CopyAction& copy, const CopyPlan::Bases& bases, CopyExecution& out) {
    if (!CopyPlan::overlaps(copy.source, copy.destination)) {
        out.direct = CopyPlan::direct(copy.source, copy.destination, bases);
        return;
    }
    out.buffer.resize(copy.source.numElements() * elementSize(copy.source.type));
    out.gather = CopyPlan::gather(copy.source, bases, out.buffer.data());
    out.scatter = CopyPlan::scatter(out.buffer.data(), copy.destination, bases);
}

} // namespace tilescope::sim
