// A CrossReplica program lowered (split from ProgramLowering.cpp): the ring GCL runs over the
// replicas' IPUs, as the steps and costs a profile shows.
#include "tilescope/sim/ProgramLowering.hpp"

#include <algorithm>

namespace tilescope::sim {

using capture::PerTile;
using capture::StepKind;

std::uint32_t ProgramLowering::emitCrossReplica(const ProgramNode& n, std::uint32_t record,
                                                std::uint32_t pred) {
    const TensorView& src = *n.source;
    const TensorView& dst = *n.destination;
    // The ring runs within a group: its size is what the costs see.
    const unsigned replicas = n.grouping.groupSize(std::max(1u, model_.replicationFactor));
    const unsigned size = elementSize(src.type);
    const std::string name = n.name.empty() ? collectiveKindName(n.collective) : n.name;

    // The bytes of the source on each tile, and of one ring fragment (1/replicas of them).
    PerTile bytes = zeros(), fragment = zeros(), ipuFragment(model_.target.numIpus, 0);
    for (const auto& r : src.ranges) {
        const auto& var = model_.variables[r.variable];
        for (auto e = r.begin; e < r.end; ++e)
            bytes[static_cast<std::uint32_t>(var.tileOf[e])] += size;
    }
    for (std::uint32_t t = 0; t < bytes.size(); ++t) {
        fragment[t] = (bytes[t] / size + replicas - 1) / replicas * size;
        ipuFragment[ipuOf(t)] += fragment[t];
    }

    const auto action = static_cast<std::uint32_t>(out_.collectives.size());
    out_.collectives.push_back({n.collective, n.reduceOp, n.grouping, src, dst});
    std::uint32_t last = pred;
    if (replicas == 1) {
        // One replica: the result is the data itself, copied on its tiles.
        last = newStep(StepKind::OnTileExecute, record, name, last);
        auto& rec = out_.records.steps.back();
        for (std::uint32_t t = 0; t < bytes.size(); ++t)
            if (bytes[t])
                rec.estimatedCyclesPerTile[t] =
                    costs_.computeSetOverheadCycles +
                    model_.target.numWorkerContexts *
                        ((bytes[t] + costs_.copyBytesPerThreadCycle - 1) /
                         costs_.copyBytesPerThreadCycle);
        addRead(last, src);
        addWrite(last, dst);
        finishAccesses(last);
        out_.steps[cfg_[last].step] = {StepAction::CrossReplica, action};
        return last;
    }

    // A ring of `replicas` IPUs: reduce-scatter passes partial sums round it (replicas - 1
    // steps, each reducing the fragment received), all-gather passes the results round
    // (replicas - 1 steps). Each step syncs every replica's IPUs, then exchanges over IPU-Links.
    // An all-to-all is GCL's "drop_off" ring (its syncful.allToAll option): every replica
    // sends all its blocks forward and each replica on the way drops off the block meant for
    // it, so step s carries replicas - s blocks of 1/replicas of the data.
    struct RingStep {
        std::string name;
        bool reduce;
        unsigned blocks; ///< fragments of 1/replicas of the data sent this step
    };
    const bool allToAll = n.collective == CollectiveKind::AllToAll;
    const bool reduces =
        n.collective == CollectiveKind::AllReduce || n.collective == CollectiveKind::ReduceScatter;
    const bool gathers =
        n.collective == CollectiveKind::AllReduce || n.collective == CollectiveKind::AllGather;
    std::vector<RingStep> ringSteps;
    for (unsigned s = 1; s < replicas && reduces; ++s)
        ringSteps.push_back({name + "/reduceScatter/step" + std::to_string(s), true, 1});
    for (unsigned s = 1; s < replicas && gathers; ++s)
        ringSteps.push_back({name + "/allGather/step" + std::to_string(s), false, 1});
    for (unsigned s = 1; s < replicas && allToAll; ++s)
        ringSteps.push_back({name + "/allToAll/step" + std::to_string(s), false, replicas - s});

    std::uint32_t first = UINT32_MAX;
    for (const auto& step : ringSteps) {
        const auto sync = newStep(StepKind::Sync, record, step.name + "/sync", last);
        for (auto& c : out_.records.steps.back().estimatedCyclesPerTile)
            c = costs_.syncCycles(model_.target, true);
        last = newStep(StepKind::GlobalExchange, record, step.name, sync);
        if (first == UINT32_MAX) {
            first = last;
            addRead(last, src);
            finishAccesses(last);
        }
        auto& rec = out_.records.steps.back();
        for (std::uint32_t t = 0; t < fragment.size(); ++t) {
            if (!fragment[t])
                continue;
            rec.exchangeBytesPerTile[t] = fragment[t] * step.blocks;
            rec.estimatedCyclesPerTile[t] =
                costs_.ipuLinkRingStepCycles(model_.target, ipuFragment[ipuOf(t)] * step.blocks);
            // A send to the next replica and a receive from the previous one, per step, with a
            // packet header on each tile that takes part.
            addStepCode(
                record, code_.globalExchangeCode, t,
                (costs_.sendInstructionsPerRegion + costs_.receiveInstructionsPerSourceTile) *
                    costs_.exchangeInstructionBytes);
            code_.globalPacketHeaders[t] += costs_.packetHeaderBytes;
        }
        if (step.reduce && !n.reduceCyclesPerTile.empty()) {
            last = newStep(StepKind::OnTileExecute, record, step.name + "/reduce", last);
            auto& compute = out_.records.steps.back();
            for (std::uint32_t t = 0; t < fragment.size(); ++t)
                if (fragment[t] && t < n.reduceCyclesPerTile.size())
                    compute.estimatedCyclesPerTile[t] = n.reduceCyclesPerTile[t];
        }
    }
    // GCL's buffers: the fragment sent and the one received, live through the ring (an
    // all-to-all's first step sends and receives replicas - 1 blocks).
    PerTile buffers = fragment;
    for (auto& b : buffers)
        b *= allToAll ? 2 * (replicas - 1) : 2;
    addTemporary(name + "/ringBuffers", std::string(elementTypeName(src.type)), size, buffers,
                 first, last);
    addWrite(last, dst);
    finishAccesses(last);
    out_.steps[cfg_[last].step] = {StepAction::CrossReplica, action};
    return last;
}

} // namespace tilescope::sim
