#include <popart/sessionoptions.hpp>
#include <sstream>

namespace popart {

namespace {

template <typename T> std::string text(const T& v) {
    std::ostringstream out;
    out << v;
    return out.str();
}

} // namespace

std::map<std::string, std::string> SessionOptions::notApplying() const {
    // Each option a simulated device has no use for, when set away from its default.
    const SessionOptions d;
    std::map<std::string, std::string> out;
#define POPART_NOT_APPLYING(field)                                                                 \
    if (field != d.field)                                                                          \
        out[#field] = text(field);
    POPART_NOT_APPLYING(enableOutlining)
    POPART_NOT_APPLYING(enableStochasticRounding)
    POPART_NOT_APPLYING(enableFloatingPointChecks)
    POPART_NOT_APPLYING(enableEngineCaching)
    POPART_NOT_APPLYING(cachePath)
    POPART_NOT_APPLYING(constantWeights)
    POPART_NOT_APPLYING(instrumentWithHardwareCycleCounter)
    POPART_NOT_APPLYING(enablePrefetchDatastreams)
    POPART_NOT_APPLYING(enableNonStableSoftmax)
    POPART_NOT_APPLYING(enableFullyConnectedPass)
    POPART_NOT_APPLYING(disableGradAccumulationTensorStreams)
    POPART_NOT_APPLYING(compileEngine)
    POPART_NOT_APPLYING(enableExplicitMainLoops)
    POPART_NOT_APPLYING(useHostCopyOps)
    POPART_NOT_APPLYING(hostAllReduce)
    POPART_NOT_APPLYING(enableDistributedReplicatedGraphs)
    POPART_NOT_APPLYING(globalReplicationFactor)
    POPART_NOT_APPLYING(globalReplicaOffset)
    POPART_NOT_APPLYING(mergeVarUpdateMemThreshold)
    POPART_NOT_APPLYING(outlineThreshold)
    POPART_NOT_APPLYING(executionPhaseSettings)
    POPART_NOT_APPLYING(timeLimitScheduler)
    POPART_NOT_APPLYING(swapLimitScheduler)
    POPART_NOT_APPLYING(kahnTieBreaker)
    POPART_NOT_APPLYING(serializedPoprithmsShiftGraphsDir)
    POPART_NOT_APPLYING(dotChecks)
    POPART_NOT_APPLYING(firstDotOp)
    POPART_NOT_APPLYING(finalDotOp)
    POPART_NOT_APPLYING(dotOpNames)
    POPART_NOT_APPLYING(exportPoplarComputationGraph)
    POPART_NOT_APPLYING(exportPoplarVertexGraph)
#undef POPART_NOT_APPLYING
    if (mergeVarUpdate != d.mergeVarUpdate)
        out["mergeVarUpdate"] = text(static_cast<int>(mergeVarUpdate));
    if (autoRecomputation != d.autoRecomputation)
        out["autoRecomputation"] = text(static_cast<int>(autoRecomputation));
    if (!lstmOptions.empty())
        out["lstmOptions"] = text(lstmOptions.size()) + " options";
    if (!gclOptions.empty())
        out["gclOptions"] = text(gclOptions.size()) + " options";
    return out;
}

} // namespace popart
