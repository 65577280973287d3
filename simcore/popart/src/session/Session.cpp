#include "onnx/OnnxConvert.hpp"
#include "session/SessionCore.hpp"

#include <fstream>
#include <popart/error.hpp>
#include <popart/session.hpp>
#include <sstream>

namespace popart {

namespace {

void requireCompiled(const SessionCore& core, const char* what) {
    if (!core.compiled)
        throw error(std::string("Session::") + what + ": call prepareDevice() first");
}

void requireLoaded(const SessionCore& core, const char* what) {
    if (!core.loaded)
        throw error(std::string("Session::") + what +
                    ": the engine is not loaded (call prepareDevice() first)");
}

std::unique_ptr<SessionCore> makeCore(const std::string& name, const DataFlow& dataFlow,
                                      std::shared_ptr<DeviceInfo> device,
                                      const SessionOptions& options, const Patterns& patterns) {
    std::unique_ptr<SessionCore> core(new SessionCore());
    core->name = name;
    core->dataFlow = dataFlow;
    if (dataFlow.batchesPerStep() <= 0)
        throw error("Session: the DataFlow has no batchesPerStep");
    core->device = std::move(device);
    core->options = options;
    core->patterns = patterns;
    return core;
}

} // namespace

Session::Session(std::unique_ptr<SessionCore> core) : core_(std::move(core)) {}
Session::~Session() = default;
InferenceSession::~InferenceSession() = default;
TrainingSession::~TrainingSession() = default;

std::unique_ptr<InferenceSession> InferenceSession::createFromOnnxModel(
    const std::string& model, const DataFlow& dataFlow, std::shared_ptr<DeviceInfo> deviceInfo,
    const InputShapeInfo& inputShapeInfo, const SessionOptions& userOptions,
    const Patterns& patterns, const std::string& name) {
    auto core = makeCore(name, dataFlow, std::move(deviceInfo), userOptions, patterns);
    core->import(model, inputShapeInfo);
    return std::unique_ptr<InferenceSession>(new InferenceSession(std::move(core)));
}

std::unique_ptr<TrainingSession> TrainingSession::createFromOnnxModel(
    const std::string& model, const DataFlow& dataFlow, const TensorId& loss,
    const Optimizer& optimizer, std::shared_ptr<DeviceInfo> deviceInfo,
    const InputShapeInfo& inputShapeInfo, const SessionOptions& userOptions,
    const Patterns& patterns, const std::string& name) {
    auto core = makeCore(name, dataFlow, std::move(deviceInfo), userOptions, patterns);
    core->training = true;
    core->loss = loss;
    core->optimizer = optimizer.clone();
    core->import(model, inputShapeInfo);
    return std::unique_ptr<TrainingSession>(new TrainingSession(std::move(core)));
}

void TrainingSession::updateOptimizerFromHost(const Optimizer* optimizer) {
    if (!optimizer)
        throw error("TrainingSession::updateOptimizerFromHost: no optimizer given");
    if (optimizer->type() != core_->optimizer->type())
        throw error("TrainingSession::updateOptimizerFromHost: the session was compiled for " +
                    core_->optimizer->type_s() + ", not " + optimizer->type_s());
    // Modes are compiled in: they must not change.
    const auto* adamBefore = dynamic_cast<const Adam*>(core_->optimizer.get());
    const auto* adamAfter = dynamic_cast<const Adam*>(optimizer);
    const auto* adaptiveBefore = dynamic_cast<const Adaptive*>(core_->optimizer.get());
    const auto* adaptiveAfter = dynamic_cast<const Adaptive*>(optimizer);
    if ((adamBefore && adamAfter &&
         (adamBefore->getMode() != adamAfter->getMode() ||
          adamBefore->getWeightDecayMode() != adamAfter->getWeightDecayMode())) ||
        (adaptiveBefore && adaptiveAfter &&
         (adaptiveBefore->getMode() != adaptiveAfter->getMode() ||
          adaptiveBefore->getWeightDecayMode() != adaptiveAfter->getWeightDecayMode())))
        throw error("TrainingSession::updateOptimizerFromHost: the optimizer's mode or weight "
                    "decay mode differs from the compiled session's");
    // Const values are compiled in: they must not change.
    for (const auto& d : core_->optimizer->defaults()) {
        for (const auto& w : core_->weightIds) {
            const OptimizerValue before = core_->optimizer->get(d.first, w);
            const OptimizerValue after = optimizer->get(d.first, w);
            if (before.isConst() != after.isConst() ||
                (before.isConst() && before.val() != after.val()))
                throw error("TrainingSession::updateOptimizerFromHost: '" + d.first +
                            "' of weight '" + w +
                            "' is const in the compiled session and cannot change");
        }
    }
    if (core_->optimizer->lossScaling().isConst() &&
        !(core_->optimizer->lossScaling() == optimizer->lossScaling()))
        throw error(
            "TrainingSession::updateOptimizerFromHost: lossScaling is const and cannot change");
    core_->optimizer = optimizer->clone();
    for (auto& hp : core_->hyperParameters)
        hp.value = hp.name == "lossScaling" ? optimizer->lossScaling().val()
                                            : optimizer->get(hp.name, hp.weight).val();
    if (core_->loaded)
        core_->optimizerFromHost();
}

void Session::prepareDevice(bool loadEngine) {
    if (!core_->compiled)
        core_->compile();
    if (loadEngine && !core_->loaded)
        core_->load();
}

void Session::loadEngineAndConnectStreams() {
    requireCompiled(*core_, "loadEngineAndConnectStreams");
    if (!core_->loaded)
        core_->load();
}

void Session::weightsFromHost() {
    requireLoaded(*core_, "weightsFromHost");
    core_->weightsFromHost();
}

void Session::weightsToHost() {
    requireLoaded(*core_, "weightsToHost");
    core_->weightsToHost();
}

void Session::readWeights(const IWeightsIO& weightsIo) {
    for (const auto& id : core_->weightIds) {
        if (!weightsIo.contains(id))
            continue;
        MutableVoidData d = weightsIo.weight(id);
        const HostTensor& h = core_->hostWeights.at(id);
        if (d.info.nelms() != h.info.nelms())
            throw error("Session::readWeights: the buffer of '" + id + "' holds " +
                        std::to_string(d.info.nelms()) + " elements, the weight " + h.info.str());
        writeHostValues(h.values, d.info.dataType(), d.data);
    }
}

void Session::writeWeights(const IWeightsIO& weightsIo) {
    for (const auto& id : core_->weightIds) {
        if (!weightsIo.contains(id))
            continue;
        MutableVoidData d = weightsIo.weight(id);
        HostTensor& h = core_->hostWeights.at(id);
        if (d.info.nelms() != h.info.nelms())
            throw error("Session::writeWeights: the buffer of '" + id + "' holds " +
                        std::to_string(d.info.nelms()) + " elements, the weight " + h.info.str());
        h.values = hostValues(d.data, d.info.dataType(), std::size_t(h.info.nelms()));
    }
}

void Session::run(IStepIO& stepio, const std::string& debugName) {
    requireLoaded(*core_, "run");
    core_->runStep(stepio, debugName);
}

void Session::modelToHost(const std::string& fileName) {
    if (core_->loaded)
        core_->weightsToHost();
    onnx::ModelProto model = core_->model;
    for (auto& t : *model.mutable_graph()->mutable_initializer()) {
        auto it = core_->hostWeights.find(t.name());
        if (it == core_->hostWeights.end())
            continue;
        const std::string name = t.name();
        toTensorProto(it->second, t);
        t.set_name(name);
    }
    std::ofstream f(fileName, std::ios::binary);
    if (!f || !model.SerializeToOstream(&f))
        throw error("Session::modelToHost: cannot write '" + fileName + "'");
}

void Session::resetHostWeights(const std::string& modelProtoOrFilename,
                               bool ignoreWeightsInModelWithoutCorrespondingHostWeight) {
    const onnx::ModelProto model = loadModel(modelProtoOrFilename);
    for (const auto& t : model.graph().initializer()) {
        auto it = core_->hostWeights.find(t.name());
        if (it == core_->hostWeights.end()) {
            if (ignoreWeightsInModelWithoutCorrespondingHostWeight)
                continue;
            throw error("Session::resetHostWeights: '" + t.name() +
                        "' is not a weight of the session");
        }
        HostTensor h = fromTensorProto(t);
        if (h.info.shape() != it->second.info.shape())
            throw error("Session::resetHostWeights: '" + t.name() + "' is " + h.info.str() +
                        ", the session's weight is " + it->second.info.str());
        it->second.values = std::move(h.values);
    }
}

TensorInfo Session::getInfo(const TensorId& id) const {
    auto it = core_->analysis.infos.find(id);
    if (it == core_->analysis.infos.end())
        throw error("Session::getInfo: no tensor '" + id + "'");
    return it->second;
}

bool Session::hasInfo(const TensorId& id) const {
    return core_->analysis.infos.count(id) != 0;
}

std::vector<TensorId> Session::getWeightIds() const {
    return core_->weightIds;
}

std::string Session::getSummaryReport(bool) const {
    requireCompiled(*core_, "getSummaryReport");
    std::ostringstream out;
    core_->engine->printProfileSummary(out);
    return out.str();
}

std::string Session::getSerializedGraph() const {
    std::ostringstream out;
    out << "{\"nodes\":[";
    bool first = true;
    for (const auto& n : core_->model.graph().node()) {
        out << (first ? "" : ",") << "{\"opType\":\"" << n.op_type() << "\",\"name\":\"" << n.name()
            << "\",\"folded\":"
            << (n.output_size() && core_->analysis.folded.count(n.output(0)) ? "true" : "false")
            << "}";
        first = false;
    }
    out << "],\"weights\":" << core_->weightIds.size() << "}";
    return out.str();
}

pva::Report Session::getReport() const {
    requireCompiled(*core_, "getReport");
    return core_->engine->getReport();
}

std::string Session::getReportPath() const {
    return core_->reportDirectory.empty() ? std::string() : core_->reportDirectory + "/profile.pop";
}

void Session::setRandomSeed(uint64_t seed) {
    core_->randomSeed = seed;
    if (core_->loaded)
        core_->seedFromHost();
}

uint64_t Session::getCycleCount() const {
    return core_->lastCycles;
}

DeviceInfo& Session::getDevice() {
    return *core_->device;
}

void Session::compileAndExport(const std::string& filename) {
    throw error("Session::compileAndExport('" + filename +
                "'): exporting executables for IPU hardware is not supported by the simulator");
}

} // namespace popart
