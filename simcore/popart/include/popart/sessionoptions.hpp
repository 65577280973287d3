#pragma once
// SessionOptions: how a session compiles and runs a model (PopART's public fields).

#include <cstdint>
#include <map>
#include <popart/names.hpp>
#include <string>

namespace popart {

/// How ops are placed on IPUs: not at all (Off), by the builder's virtualGraph attributes
/// (Manual), by the compiler (Auto), or by execution phase.
enum class VirtualGraphMode { Off = 0, Manual, Auto, ExecutionPhases, N };

/// Which activations the backward pass recomputes instead of keeping.
enum class RecomputationType { None = 0, Standard, NormOnly, RecomputeAll, Pipeline, N };

/// Where optimizer state and weights live between steps.
enum class MergeVarUpdateType { None = 0, All, AutoLoose, AutoTight, N };

/// Which report files the session writes (PopART's older switch; autoReport engine options are
/// the way the SDK recommends, and both work here).
enum class SyntheticDataMode { Off = 0, Zeros, RandomNormal, RandomUniform, N };

/// When gradients reduced by the mean over accumulated micro-batches are divided: after the
/// accumulation (Post), as they accumulate (Running), or through the loss (PostAndLoss). The
/// result is the same up to rounding; the simulator divides after the accumulation.
enum class MeanReductionStrategy { Running = 0, Post, PostAndLoss, N };

/// The options of a session. Those this simulator applies: engineOptions (as Poplar engine
/// options, so autoReport.* writes profile.pop and the .pvti), virtualGraphMode (Off, or Manual:
/// each node on the IPU its virtualGraph attribute names), enableGradientAccumulation with
/// accumulationFactor (gradients accumulated over that many micro-batches per optimizer step and
/// reduced by accumulationAndReplicationReductionType: Sum, or Mean dividing by the factor; a
/// step runs batchesPerStep x accumulationFactor micro-batches), enableReplicatedGraphs with
/// replicatedGraphCount (the device's IPUs divided among the replicas; each takes its slice of
/// every batch, [batchesPerStep, accumulationFactor, replicas, sample...] on the host; gradients
/// are summed, or averaged with the Mean reduction, across replicas before the optimizer).
/// enablePipelining and pipeline stages are recorded on the nodes' operations; reportOptions,
/// matmulOptions, convolutionOptions, syntheticDataMode and logDir are accepted. The others are
/// accepted too; a non-default value is recorded in the report as an option that does not apply to
/// a simulated device (notApplying()).
struct SessionOptions {
    std::string logDir;
    std::map<std::string, std::string> engineOptions;
    std::map<std::string, std::string> reportOptions;
    std::map<std::string, std::string> convolutionOptions;
    std::map<std::string, std::string> matmulOptions;
    std::map<std::string, std::string> lstmOptions;
    std::map<std::string, std::string> gclOptions;

    VirtualGraphMode virtualGraphMode = VirtualGraphMode::Off;
    bool enablePipelining = false;
    RecomputationType autoRecomputation = RecomputationType::None;
    bool enableReplicatedGraphs = false;
    int64_t replicatedGraphCount = 1;
    bool enableGradientAccumulation = false;
    int64_t accumulationFactor = 1;
    ReductionType accumulationAndReplicationReductionType = ReductionType::Sum;
    MeanReductionStrategy meanAccumulationAndReplicationReductionStrategy =
        MeanReductionStrategy::Post;
    SyntheticDataMode syntheticDataMode = SyntheticDataMode::Off;

    // Accepted, recorded as not applying when changed from the default.
    bool enableOutlining = true;
    bool enableStochasticRounding = false;
    bool enableFloatingPointChecks = false;
    bool enableEngineCaching = false;
    std::string cachePath = "session_cache";
    bool constantWeights = true;
    bool instrumentWithHardwareCycleCounter = false;
    bool enablePrefetchDatastreams = true;
    bool enableNonStableSoftmax = false;
    bool enableFullyConnectedPass = true;
    bool disableGradAccumulationTensorStreams = false;
    bool compileEngine = true;
    bool enableExplicitMainLoops = false;
    bool useHostCopyOps = false;
    bool hostAllReduce = false;
    bool enableDistributedReplicatedGraphs = false;
    int64_t globalReplicationFactor = 1;
    int64_t globalReplicaOffset = 0;
    MergeVarUpdateType mergeVarUpdate = MergeVarUpdateType::None;
    int64_t mergeVarUpdateMemThreshold = 1000000;
    int64_t outlineThreshold = 1;
    int64_t executionPhaseSettings = 0;
    float timeLimitScheduler = 1e9f;
    int64_t swapLimitScheduler = 1000000;
    std::string kahnTieBreaker = "greedy";
    std::string serializedPoprithmsShiftGraphsDir;
    bool dotChecks = false;
    int64_t firstDotOp = 0;
    int64_t finalDotOp = 10000;
    bool dotOpNames = false;
    bool exportPoplarComputationGraph = false;
    bool exportPoplarVertexGraph = false;

    /// The options set away from their defaults that a simulated device does not apply, as
    /// "name=value" lines (written to the report's metadata by the session).
    std::map<std::string, std::string> notApplying() const;
};

} // namespace popart
