#include "session/SessionCore.hpp"

#include "onnx/OnnxConvert.hpp"
#include "session/DeviceInfoImpl.hpp"

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <gcl/Collectives.hpp>
#include <popart/error.hpp>
#include <poplar/HalfFloat.hpp>
#include <poplar/exceptions.hpp>
#include <poplin/codelets.hpp>
#include <popnn/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Zero.hpp>
#include <popops/codelets.hpp>
#include <poprand/codelets.hpp>
#include <sstream>
#include <tilescope/capture/ProfileRecords.hpp>
#include <tilescope/sim/EngineNaming.hpp>

namespace popart {

namespace {

namespace pe = popops::expr;

std::vector<std::size_t> dims(const Shape& s) {
    std::vector<std::size_t> d;
    for (auto x : s)
        d.push_back(std::size_t(x));
    return d;
}

// Copies `n` elements from host data of `from` to `to` (converting when the types differ).
void convert(const void* src, DataType from, void* dst, DataType to, std::size_t n) {
    if (from == to) {
        std::memcpy(dst, src, n * std::size_t(dataTypeSize(to)));
        return;
    }
    writeHostValues(hostValues(src, from, n), to, dst);
}

HostStream makeStream(const TensorId& id, const TensorInfo& info, const std::string& handle) {
    HostStream s;
    s.id = id;
    s.info = info;
    s.deviceData = deviceDataType(info.dataType());
    s.handle = handle;
    return s;
}

} // namespace

void SessionCore::import(const std::string& modelProtoOrFilename, const InputShapeInfo& shapes) {
    if (!device)
        throw error("Session: no device given");
    model = loadModel(modelProtoOrFilename);
    analysis = analyseModel(model, shapes, AnalysisMode::Session);
    if (analysis.onnxOpset > 17)
        throw error("Session: the model imports ONNX opset " + std::to_string(analysis.onnxOpset) +
                    "; opsets up to 17 are supported");
    for (const auto& id : dataFlow.anchors())
        if (!analysis.infos.count(id))
            throw error("Session: anchor '" + id + "' is not a tensor of the model");
    if (training && !analysis.infos.count(loss))
        throw error("TrainingSession: the loss '" + loss + "' is not a tensor of the model");
    for (const auto& id : dataFlow.anchors())
        needed.insert(id);
    if (training)
        needed.insert(loss);
    const auto& nodes = model.graph().node();
    for (int ni = nodes.size() - 1; ni >= 0; --ni) {
        bool used = false;
        for (const auto& o : nodes.Get(ni).output())
            used = used || needed.count(o);
        if (used)
            for (const auto& i : nodes.Get(ni).input())
                needed.insert(i);
    }
    for (const auto& t : model.graph().initializer())
        if (analysis.weights.count(t.name()) && needed.count(t.name())) {
            weightIds.push_back(t.name());
            hostWeights[t.name()] = analysis.constants.at(t.name());
        }
    if (options.enableGradientAccumulation && options.accumulationFactor < 1)
        throw error("SessionOptions: accumulationFactor must be at least 1");
    if (options.accumulationAndReplicationReductionType == ReductionType::NoReduction)
        throw error("SessionOptions: accumulationAndReplicationReductionType must be Sum or "
                    "Mean, not NoReduction");
    if (options.enableReplicatedGraphs) {
        const unsigned ipus = device->impl().device.getTarget().getNumIPUs();
        if (options.replicatedGraphCount < 1 || ipus % unsigned(options.replicatedGraphCount) != 0)
            throw error("SessionOptions: replicatedGraphCount " +
                        std::to_string(options.replicatedGraphCount) +
                        " must divide the device's " + std::to_string(ipus) +
                        " IPUs (each replica runs on IPUs of its own)");
    }
}

void SessionCore::compile() {
    graph.reset(replicas() > 1 ? new poplar::Graph(device->impl().device.getTarget(),
                                                   poplar::replication_factor(replicas()))
                               : new poplar::Graph(device->impl().device.getTarget()));
    const poplar::Target& target = graph->getTarget(); // one replica's IPUs
    popops::addCodelets(*graph);
    poplin::addCodelets(*graph);
    popnn::addCodelets(*graph);
    poprand::addCodelets(*graph); // Dropout's masks in training

    // The session itself is an operation too: its settings, and the options that do not apply.
    std::unique_ptr<poplar::DebugInfo> sessionOp(
        new poplar::DebugInfo(poplar::DebugContext("session/" + name), "PopART"));
    sessionOp->setValue("sessionType", poplar::ProfileValue(training ? "training" : "inference"));
    sessionOp->setValue("batchesPerStep", poplar::ProfileValue(dataFlow.batchesPerStep()));
    poplar::ProfileValue::Map notApplying;
    for (const auto& o : options.notApplying())
        notApplying[o.first] = poplar::ProfileValue(o.second);
    sessionOp->setValue("optionsNotApplying", poplar::ProfileValue(notApplying));
    const poplar::DebugNameAndId sdi(*sessionOp);

    state.matmulOptions = options.matmulOptions;
    if (!options.partialsTypeMatMuls.empty())
        state.matmulOptions["partialsType"] = options.partialsTypeMatMuls;
    state.convolutionOptions = options.convolutionOptions;
    state.analysis = &analysis;
    state.training = training;
    state.graph = graph.get();
    state.mainGraph = graph.get();
    if (options.virtualGraphMode == VirtualGraphMode::Manual) {
        const unsigned perIpu = target.getTilesPerIPU();
        for (unsigned i = 0; i < target.getNumIPUs(); ++i)
            state.ipuGraphs.push_back(graph->createVirtualGraph(i * perIpu, (i + 1) * perIpu));
    } else if (options.virtualGraphMode != VirtualGraphMode::Off) {
        throw error("SessionOptions: virtualGraphMode " +
                    std::to_string(int(options.virtualGraphMode)) +
                    " is not supported (Off and Manual are)");
    }
    poplar::program::Sequence writeWeights(poplar::DebugContext(sdi, "weightsFromHost"));
    poplar::program::Sequence readWeights(poplar::DebugContext(sdi, "weightsToHost"));
    for (const auto& id : weightIds) {
        const TensorInfo& info = analysis.infos.at(id);
        const poplar::Type type = deviceTypeOf(info.dataType());
        poplar::Tensor t = createSliceableWeight(*graph, model.graph(), analysis, id, {sdi, id});
        if (!t.valid()) {
            t = graph->addVariable(type, dims(info.shape()), {sdi, id});
            mapLinearly(*graph, t);
        }
        state.tensors[id] = t;
        HostStream w = makeStream(id, info, "weightsFromHost/" + id);
        w.buffer.resize(std::size_t(info.nelms() * dataTypeSize(w.deviceData)));
        // Every replica starts from the same weights; they are read back from replica 0.
        auto in = graph->addHostToDeviceFIFO(w.handle, type, t.numElements(),
                                             poplar::ReplicatedStreamMode::BROADCAST);
        writeWeights.add(poplar::program::Copy(in, t));
        HostStream r = w;
        r.handle = "weightsToHost/" + id;
        r.buffer.resize(w.buffer.size() * replicas());
        auto out = graph->addDeviceToHostFIFO(r.handle, type, t.numElements());
        readWeights.add(poplar::program::Copy(t, out));
        weightWrites.push_back(std::move(w));
        weightReads.push_back(std::move(r));
    }

    poplar::program::Sequence body(poplar::DebugContext(sdi, "batch"));
    for (const auto& in : model.graph().input()) {
        if (analysis.constants.count(in.name()) || !needed.count(in.name()))
            continue;
        const TensorInfo& info = analysis.infos.at(in.name());
        const poplar::Type type = deviceTypeOf(info.dataType());
        poplar::Tensor t = graph->addVariable(type, dims(info.shape()), {sdi, in.name()});
        mapLinearly(*graph, t);
        state.tensors[in.name()] = t;
        HostStream s = makeStream(in.name(), info, "input/" + in.name());
        auto stream = graph->addHostToDeviceFIFO(s.handle, type, t.numElements());
        body.add(poplar::program::Copy(stream, t));
        inputStreams.push_back(std::move(s));
    }

    lowerForward(*this, body);
    if (training) {
        lowerBackward(*this, body);
        if (accumulationFactor() == 1) {
            reduceGradientsAcrossReplicas(body, sdi);
            lowerOptimizerStep(*this, body);
        } else {
            // Gradient accumulation: gradients are summed over accumulationFactor micro-batches
            // and the optimizer steps on the sum (divided by the factor with the Mean reduction,
            // in lowerOptimizerStep) after every accumulationFactor-th.
            poplar::program::Sequence update(poplar::DebugContext(sdi, "accumulatedUpdate"));
            std::vector<poplar::Tensor> accumulators;
            for (const auto& id : weightIds) {
                auto g = state.grads.find(id);
                if (g == state.grads.end())
                    continue;
                poplar::Tensor acc = graph->addVariable(g->second.elementType(), g->second.shape(),
                                                        {sdi, "accumulated/" + id});
                mapLinearly(*graph, acc);
                stateToZero.push_back(acc);
                popops::addInPlace(*graph, acc, g->second, body, {sdi, "accumulate/" + id});
                g->second = acc;
                accumulators.push_back(acc);
            }
            reduceGradientsAcrossReplicas(update, sdi);
            lowerOptimizerStep(*this, update);
            for (const auto& acc : accumulators)
                popops::zero(*graph, acc, update, {sdi, "accumulated"});
            poplar::Tensor micro = graph->addVariable(poplar::INT, {}, {sdi, "microBatch"});
            graph->setTileMapping(micro, 0);
            stateToZero.push_back(micro);
            popops::mapInPlace(*graph, pe::_1 + pe::Const(1), {micro}, body, {sdi, "microBatch"});
            poplar::Tensor due = popops::map(
                *graph, pe::Rem(pe::_1, pe::Const(int(accumulationFactor()))) == pe::Const(0),
                {micro}, body, {sdi, "updateDue"});
            body.add(poplar::program::If(due, update, {sdi, "accumulatedUpdate"}));
        }
    }

    // Anchors: ALL every batch, EVERYN/FINAL when the batch counter reaches a multiple of N,
    // SUM into an accumulator streamed once per step.
    poplar::program::Sequence before(poplar::DebugContext(sdi, "stepStart")),
        after(poplar::DebugContext(sdi, "stepEnd"));
    poplar::Tensor counter;
    for (const auto& id : dataFlow.anchors()) {
        auto found = state.tensors.find(id);
        poplar::Tensor t;
        if (found != state.tensors.end()) {
            t = found->second;
        } else if (analysis.constants.count(id)) {
            // An anchor folded on the host (a Constant, a Shape): streamed from a graph constant.
            const HostTensor& h = analysis.constants.at(id);
            if (h.values.empty()) // nothing to hold: an empty variable
                t = graph->addVariable(deviceTypeOf(h.info.dataType()), dims(h.info.shape()),
                                       {sdi, "anchor/" + id});
            else
                t = graph->addConstant(deviceTypeOf(h.info.dataType()), dims(h.info.shape()),
                                       h.values.data(), {sdi, "anchor/" + id});
            mapLinearly(*graph, t);
        } else {
            throw internal_error("Session: anchor '" + id + "' was not computed");
        }
        const AnchorReturnType& art = dataFlow.art(id);
        HostStream s = makeStream(id, analysis.infos.at(id), "anchor/" + id);
        auto stream = graph->addDeviceToHostFIFO(s.handle, t.elementType(), t.numElements());
        const int period =
            art.id() == AnchorReturnTypeId::Final ? dataFlow.batchesPerStep() : art.rp();
        if (art.id() == AnchorReturnTypeId::All || period == 1) {
            body.add(poplar::program::Copy(t, stream));
        } else if (art.id() == AnchorReturnTypeId::Sum) {
            poplar::Tensor acc = graph->addVariable(t.elementType(), t.shape(), {sdi, "sum/" + id});
            mapLinearly(*graph, acc);
            popops::zero(*graph, acc, before, {sdi, "sum/" + id});
            popops::addInPlace(*graph, acc, t, body, {sdi, "sum/" + id});
            after.add(poplar::program::Copy(acc, stream));
        } else {
            if (!counter.valid()) {
                counter = graph->addVariable(poplar::INT, {}, {sdi, "batchCounter"});
                graph->setTileMapping(counter, 0);
                popops::zero(*graph, counter, before, {sdi, "batchCounter"});
                popops::mapInPlace(*graph, pe::_1 + pe::Const(1), {counter}, body,
                                   {sdi, "batchCounter"});
            }
            poplar::Tensor due =
                popops::map(*graph, pe::Rem(pe::_1, pe::Const(period)) == pe::Const(0), {counter},
                            body, {sdi, "due/" + id});
            body.add(
                poplar::program::If(due, poplar::program::Copy(t, stream), {sdi, "anchor/" + id}));
        }
        anchorStreams.push_back(std::move(s));
    }

    for (const auto& z : stateToZero)
        popops::zero(*graph, z, writeWeights, {sdi, "optimizerState"});
    poplar::program::Sequence stepProg(poplar::DebugContext(sdi, "step"));
    stepProg.add(before);
    stepProg.add(poplar::program::Repeat(unsigned(dataFlow.batchesPerStep() * accumulationFactor()),
                                         body, {sdi, "batches"}));
    stepProg.add(after);
    programs = {stepProg, writeWeights, readWeights};

    poplar::OptionFlags flags;
    for (const auto& o : options.engineOptions)
        flags.set(o.first, o.second);
    operations.push_back(std::move(sessionOp));
    // As PopART names its engines after its sessions, Poplar writes the session's report to a
    // subfolder of autoReport.directory named after it ("training", "inference").
    tilescope::sim::nameNextEngine(name);
    const auto reportFolder = [] {
        const std::string file = tilescope::sim::lastEngineReportFile();
        return file.empty() ? file : std::filesystem::path(file).parent_path().string();
    };
    try {
        engine.reset(new poplar::Engine(*graph, programs, flags));
        reportDirectory = reportFolder();
    } catch (const poplar::graph_memory_allocation_error& e) {
        reportDirectory = reportFolder();
        throw memory_allocation_err(e.what(), e.what(),
                                    reportDirectory.empty() ? std::string()
                                                            : reportDirectory + "/profile.pop");
    } catch (const poplar::poplar_error& e) {
        throw error(std::string("Session: compiling the model failed: ") + e.what());
    }
    compiled = true;
}

int64_t SessionCore::accumulationFactor() const {
    return training && options.enableGradientAccumulation ? options.accumulationFactor : 1;
}

unsigned SessionCore::replicas() const {
    return options.enableReplicatedGraphs ? unsigned(options.replicatedGraphCount) : 1u;
}

void SessionCore::reduceGradientsAcrossReplicas(poplar::program::Sequence& prog,
                                                const poplar::DebugNameAndId& di) {
    if (replicas() == 1)
        return;
    const auto op = options.accumulationAndReplicationReductionType == ReductionType::Mean
                        ? gcl::CollectiveOperator::MEAN
                        : gcl::CollectiveOperator::ADD;
    for (const auto& id : weightIds) {
        auto g = state.grads.find(id);
        if (g == state.grads.end())
            continue;
        // The accumulator (or gradient) is reduced in place, so every replica steps alike.
        gcl::allReduceInPlaceCrossReplica(*graph, g->second, op, prog, {di, "replicaReduce/" + id});
    }
}

int64_t SessionCore::gradientMeanDivisor() const {
    return options.accumulationAndReplicationReductionType == ReductionType::Mean
               ? accumulationFactor()
               : 1;
}

void SessionCore::load() {
    engine->load(device->impl().device);
    if (replicas() > 1) {
        connectReplicatedStreams();
    } else {
        connectStreams();
    }
    for (auto* list : {&weightWrites, &weightReads})
        for (auto& s : *list)
            engine->connectStream(s.handle, s.buffer.data(), s.buffer.data() + s.buffer.size());
    loaded = true;
    seedFromHost();
}

void SessionCore::fetchInput(const HostStream& s, void* p) {
    const int64_t n = s.info.nelms();
    if (!stepIO)
        throw error("Session: input '" + s.id + "' read outside run()");
    ConstVoidData d = stepIO->in(s.id, n, false);
    if (d.info.nelms() != n)
        throw error("Session::run: the data of input '" + s.id + "' has " +
                    std::to_string(d.info.nelms()) + " elements per batch, the model's " +
                    s.info.str() + " needs " + std::to_string(n));
    convert(d.data, d.info.dataType(), p, s.deviceData, std::size_t(n));
    stepIO->inComplete(s.id, n);
}

void SessionCore::deliverAnchor(const HostStream& s, const void* p) {
    const int64_t n = s.info.nelms();
    MutableVoidData d = stepIO->out(s.id, n);
    if (d.info.nelms() != n)
        throw error("Session::run: the anchor array of '" + s.id + "' gives " +
                    std::to_string(d.info.nelms()) + " elements per copy, not " +
                    std::to_string(n));
    convert(p, s.deviceData, d.data, d.info.dataType(), std::size_t(n));
    stepIO->outComplete(s.id);
}

void SessionCore::connectStreams() {
    for (auto& s : inputStreams) {
        const HostStream* sp = &s;
        engine->connectStreamToCallback(s.handle, [this, sp](void* p) { fetchInput(*sp, p); });
    }
    for (auto& s : anchorStreams) {
        const HostStream* sp = &s;
        engine->connectStreamToCallback(s.handle, [this, sp](void* p) { deliverAnchor(*sp, p); });
    }
}

void SessionCore::connectReplicatedStreams() {
    const unsigned r = replicas();
    auto bytesOf = [](const HostStream& s) {
        return std::size_t(s.info.nelms() * dataTypeSize(s.deviceData));
    };
    inputStaging.clear();
    anchorStaging.clear();
    for (const auto& s : inputStreams)
        inputStaging.emplace_back(r, bytesOf(s));
    for (const auto& s : anchorStreams)
        anchorStaging.emplace_back(r, bytesOf(s));
    for (std::size_t i = 0; i < inputStreams.size(); ++i) {
        const HostStream* sp = &inputStreams[i];
        ReplicaStaging* staging = &inputStaging[i];
        for (unsigned replica = 0; replica < r; ++replica)
            engine->connectStreamToCallback(
                sp->handle, replica, [this, sp, staging, replica](void* p) {
                    staging->read(replica, p, [this, sp](void* dst) { fetchInput(*sp, dst); });
                });
    }
    for (std::size_t i = 0; i < anchorStreams.size(); ++i) {
        const HostStream* sp = &anchorStreams[i];
        ReplicaStaging* staging = &anchorStaging[i];
        for (unsigned replica = 0; replica < r; ++replica)
            engine->connectStreamToCallback(
                sp->handle, replica, [this, sp, staging, replica](void* p) {
                    staging->write(replica, p, [this, sp](void* src) { deliverAnchor(*sp, src); });
                });
    }
}

void SessionCore::runStep(IStepIO& io, const std::string& debugName) {
    stepIO = &io;
    for (auto* list : {&inputStaging, &anchorStaging})
        for (auto& s : *list)
            s.reset();
    struct Reset {
        IStepIO*& p;
        ~Reset() { p = nullptr; }
    } reset{stepIO};
    engine->run(0, debugName);
    const auto& runs = engine->executionRecords().runs;
    lastCycles = runs.empty() ? 0 : runs.back().totalCycles;
}

void SessionCore::weightsFromHost() {
    for (auto& w : weightWrites) {
        const HostTensor& h = hostWeights.at(w.id);
        writeHostValues(h.values, w.deviceData, w.buffer.data());
    }
    engine->run(1);
    optimizerFromHost();
}

void SessionCore::weightsToHost() {
    engine->run(2); // with replicas, each one's copy: replica 0's comes first
    for (auto& r : weightReads) {
        HostTensor& h = hostWeights.at(r.id);
        h.values = hostValues(r.buffer.data(), r.deviceData, std::size_t(r.info.nelms()));
    }
}

void SessionCore::seedFromHost() {
    if (!state.randomSeed.valid())
        return;
    const unsigned high = unsigned(randomSeed >> 32);
    const int low = int(randomSeed & 0x7fffffffu);
    engine->writeTensor(kSeedHighHandle, &high, &high + 1);
    engine->writeTensor(kSeedLowHandle, &low, &low + 1);
}

void SessionCore::optimizerFromHost() {
    for (auto& hp : hyperParameters) {
        if (hp.half) {
            const uint16_t bits = poplar::half(hp.value).bits();
            engine->writeTensor(hp.handle, &bits, &bits + 1);
        } else {
            engine->writeTensor(hp.handle, &hp.value, &hp.value + 1);
        }
    }
}

} // namespace popart
