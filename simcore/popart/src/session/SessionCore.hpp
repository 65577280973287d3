#pragma once
// The state behind a Session: the imported model, the poplar graph and engine built from it,
// the host streams of inputs, anchors and weights, and the optimizer's device state.
//
// Programs of the engine: 0 runs one step (batchesPerStep batches), 1 writes weights (and
// zeroes optimizer state), 2 reads weights, 3 writes the optimizer's non-const
// hyperparameters.

#include "onnx/ModelAnalysis.hpp"
#include "ops/LoweringState.hpp"
#include "ops/OpLowering.hpp"
#include "session/ReplicaStreams.hpp"

#include <memory>
#include <onnx/onnx_pb.h>
#include <popart/dataflow.hpp>
#include <popart/devicemanager.hpp>
#include <popart/istepio.hpp>
#include <popart/optimizer.hpp>
#include <popart/patterns.hpp>
#include <popart/sessionoptions.hpp>
#include <poplar/DebugInfo.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <set>
#include <vector>

namespace popart {

/// A host stream of one tensor: its id, the info the model gives it and the device type.
struct HostStream {
    TensorId id;
    TensorInfo info;          // as the model declares it
    DataType deviceData;      // as the device holds it (INT64 -> INT32)
    std::string handle;       // the poplar stream handle
    std::vector<char> buffer; // device-format bytes of one copy (weights, hyperparameters)
};

/// A hyperparameter held in a device scalar because it is not const.
struct HyperParameter {
    TensorId weight;
    std::string name;
    std::string handle;
    float value = 0.0f;
    bool half = false; // a HALF variable (of a FLOAT16 weight's update)
};

struct SessionCore {
    // The configuration.
    std::string name;
    onnx::ModelProto model;
    ModelAnalysis analysis;
    DataFlow dataFlow;
    SessionOptions options;
    Patterns patterns;
    std::shared_ptr<DeviceInfo> device;
    bool training = false;
    TensorId loss;
    std::unique_ptr<Optimizer> optimizer;

    // The compiled model.
    std::unique_ptr<poplar::Graph> graph;
    std::vector<poplar::program::Program> programs;
    std::unique_ptr<poplar::Engine> engine;
    std::vector<std::unique_ptr<poplar::DebugInfo>>
        operations; // one per ONNX node, and the session
    /// One operation per module scope of the nodes' names ("/layer1", "/layer1/conv"), which
    /// the nodes' operations nest in.
    std::map<std::string, std::unique_ptr<poplar::DebugInfo>> moduleScopes;
    LoweringState state;
    std::vector<TensorId> weightIds;
    std::map<TensorId, HostTensor> hostWeights;
    std::vector<HostStream> inputStreams, anchorStreams, weightWrites, weightReads;
    /// With replicas: per input and anchor stream (same order), the batches in flight.
    std::vector<ReplicaStaging> inputStaging, anchorStaging;
    std::vector<HyperParameter> hyperParameters;
    std::vector<std::pair<poplar::Tensor, poplar::Tensor>>
        optimizerState;                      // unused: see OptimizerStep
    std::vector<poplar::Tensor> stateToZero; // optimizer state zeroed by weightsFromHost
    IStepIO* stepIO = nullptr;
    bool compiled = false;
    bool loaded = false;
    uint64_t lastCycles = 0;
    uint64_t randomSeed = 0;
    std::string reportDirectory;
    /// Tensors the anchors (and the loss) depend on: other nodes and inputs are pruned, as
    /// PopART prunes its IR.
    std::set<TensorId> needed;

    /// Analyses the model (after options, dataFlow, device are set); checks anchors and loss.
    void import(const std::string& modelProtoOrFilename, const InputShapeInfo& shapes);
    /// Builds the graph and programs and compiles the engine.
    void compile();
    void load();
    /// The input and anchor streams' callbacks: straight to the IStepIO with one replica,
    /// through ReplicaStaging with more.
    void connectStreams();
    void connectReplicatedStreams();
    /// One input's batch from the IStepIO into `p` (device type); one anchor's copy to it.
    void fetchInput(const HostStream& s, void* p);
    void deliverAnchor(const HostStream& s, const void* p);
    void runStep(IStepIO& io, const std::string& debugName);
    void weightsFromHost();
    void weightsToHost();
    void optimizerFromHost();
    /// Writes randomSeed to the device (when a node draws random numbers).
    void seedFromHost();
    /// Micro-batches per optimizer step (SessionOptions::accumulationFactor when training with
    /// enableGradientAccumulation, else 1); a step runs batchesPerStep times as many batches.
    int64_t accumulationFactor() const;
    /// What the optimizer divides accumulated gradients by: the accumulation factor when
    /// accumulationAndReplicationReductionType is Mean, else 1.
    int64_t gradientMeanDivisor() const;
    /// The replicas the graph runs as (replicatedGraphCount with enableReplicatedGraphs).
    unsigned replicas() const;
    /// Appends the reduction of every weight's gradient across the replicas (a sum, or a mean
    /// with accumulationAndReplicationReductionType Mean) to `prog`; nothing with one replica.
    void reduceGradientsAcrossReplicas(poplar::program::Sequence& prog,
                                       const poplar::DebugNameAndId& di);
};

/// The graph a node is lowered on: its IPU's virtual graph with VirtualGraphMode::Manual and
/// a "__ipu_number" attribute (Builder::virtualGraph), else the whole device.
poplar::Graph& graphForNode(SessionCore& core, const NodeView& view);
/// Lowers every node of the model into `prog` (forward pass); records each node as an
/// operation of the report.
void lowerForward(SessionCore& core, poplar::program::Sequence& prog);
/// Appends the backward pass of core.loss to `prog` (gradients in core.state.grads).
void lowerBackward(SessionCore& core, poplar::program::Sequence& prog);
/// Appends the optimizer's update of every weight to `prog`.
void lowerOptimizerStep(SessionCore& core, poplar::program::Sequence& prog);

} // namespace popart
