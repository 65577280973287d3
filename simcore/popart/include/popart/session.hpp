#pragma once
// Sessions: InferenceSession and TrainingSession compile an ONNX model for a (simulated) device,
// move weights and data, run steps and report, as PopART's sessions do.

#include <cstdint>
#include <memory>
#include <popart/dataflow.hpp>
#include <popart/devicemanager.hpp>
#include <popart/inputshapeinfo.hpp>
#include <popart/istepio.hpp>
#include <popart/names.hpp>
#include <popart/optimizer.hpp>
#include <popart/patterns.hpp>
#include <popart/sessionoptions.hpp>
#include <popart/stepio.hpp>
#include <popart/tensorinfo.hpp>
#include <pva/pva.hpp>
#include <string>
#include <vector>

namespace popart {

struct SessionCore;

/// What InferenceSession and TrainingSession share: the compiled model on its device.
/// Order of use: prepareDevice() (compiles; writes the compile profile when autoReport says
/// so), weightsFromHost(), then run() as often as needed; weightsToHost()/modelToHost() bring
/// weights back. The ONNX model's nodes are operations of the report (layer "PopART").
class Session {
public:
    virtual ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    /// Compiles the model into a poplar::Engine and (with loadEngine) loads it on the device.
    void prepareDevice(bool loadEngine = true);
    void loadEngineAndConnectStreams();
    /// Copies the host's weights (the model's initializers, or those last set with
    /// resetHostWeights/writeWeights) to the device.
    void weightsFromHost();
    /// Copies the device's weights to the session's host copy.
    void weightsToHost();
    /// Fills `weightsIo`'s buffers with the host copy of the weights.
    void readWeights(const IWeightsIO& weightsIo);
    /// Sets the host copy of the weights in `weightsIo` (weightsFromHost moves them on).
    void writeWeights(const IWeightsIO& weightsIo);
    /// Runs one step: batchesPerStep batches, reading inputs and writing anchors via `stepio`.
    void run(IStepIO& stepio, const std::string& debugName = "");
    /// Writes the model with the device's current weights to `fileName` (ONNX).
    void modelToHost(const std::string& fileName);
    /// Replaces the host weights with those of a model (file or serialized ModelProto).
    void resetHostWeights(const std::string& modelProtoOrFilename,
                          bool ignoreWeightsInModelWithoutCorrespondingHostWeight = false);

    TensorInfo getInfo(const TensorId& id) const;
    bool hasInfo(const TensorId& id) const;
    /// The ids of the model's weights (initializers kept in device variables).
    std::vector<TensorId> getWeightIds() const;
    /// The compile and execution summary as text (poplar's profile summary).
    std::string getSummaryReport(bool resetProfile = true) const;
    /// A summary of the lowered graph (nodes, tensors, programs) as JSON text.
    std::string getSerializedGraph() const;
    /// The report written by this session (needs autoReport enabled in engineOptions or
    /// POPLAR_ENGINE_OPTIONS); popart::error otherwise.
    pva::Report getReport() const;
    /// Where this session's profile.pop is (empty without autoReport).
    std::string getReportPath() const;
    void setRandomSeed(uint64_t seed);
    /// Cycles of the last run() (the simulated device's estimate).
    uint64_t getCycleCount() const;
    DeviceInfo& getDevice();
    /// Compiling to an executable file for hardware is not supported (popart::error).
    void compileAndExport(const std::string& filename);

protected:
    explicit Session(std::unique_ptr<SessionCore> core);
    std::unique_ptr<SessionCore> core_;
};

/// A session that runs the model forward.
class InferenceSession : public Session {
public:
    static std::unique_ptr<InferenceSession> createFromOnnxModel(
        const std::string& model, const DataFlow& dataFlow, std::shared_ptr<DeviceInfo> deviceInfo,
        const InputShapeInfo& inputShapeInfo = InputShapeInfo(),
        const SessionOptions& userOptions = SessionOptions(), const Patterns& patterns = Patterns(),
        const std::string& name = "inference");
    ~InferenceSession() override;

private:
    using Session::Session;
};

/// A session that trains: forward, the gradient of `loss` (a scalar produced by a loss op),
/// and the optimizer's update of every weight, on the device, per batch.
class TrainingSession : public Session {
public:
    static std::unique_ptr<TrainingSession>
    createFromOnnxModel(const std::string& model, const DataFlow& dataFlow, const TensorId& loss,
                        const Optimizer& optimizer, std::shared_ptr<DeviceInfo> deviceInfo,
                        const InputShapeInfo& inputShapeInfo = InputShapeInfo(),
                        const SessionOptions& userOptions = SessionOptions(),
                        const Patterns& patterns = Patterns(),
                        const std::string& name = "training");
    ~TrainingSession() override;

    /// Sets the non-const hyperparameters (learning rate, ...) for the next runs; changing a
    /// const one raises popart::error.
    void updateOptimizerFromHost(const Optimizer* optimizer);

private:
    using Session::Session;
};

} // namespace popart
