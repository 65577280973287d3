#include "poplar/Engine.hpp"

#include "EngineErrors.hpp"
#include "execute/HostTransfers.hpp"
#include "execute/ReplicaGroup.hpp"
#include "execute/StreamBindings.hpp"
#include "poplar/exceptions.hpp"
#include "profile/NumberFormat.hpp"
#include "pvti/pvti.hpp"
#include "tilescope/capture/CompileOutputFiles.hpp"
#include "tilescope/capture/HostTracer.hpp"
#include "tilescope/capture/ProcessInfo.hpp"
#include "tilescope/capture/ProfileCapture.hpp"
#include "tilescope/sim/BspEngine.hpp"
#include "tilescope/sim/EngineNaming.hpp"
#include "tilescope/sim/EngineOptions.hpp"
#include "tilescope/sim/ExecutableImage.hpp"
#include "tilescope/sim/GraphCompiler.hpp"
#include "tilescope/sim/ProfileSummary.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <unistd.h>
#include <utility>

namespace poplar {

namespace sim = tilescope::sim;
using sim::groupDigits;

namespace {

// The simulator's own host-trace channels (pvti): compilation, and the engine's work at run time.
pvti::TraceChannel compileChannel = {"poplar"};
pvti::TraceChannel engineChannel = {"engine"};

double residentBytes() {
    std::ifstream statm("/proc/self/statm");
    double pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * static_cast<double>(::sysconf(_SC_PAGESIZE));
}

// Engines that write reports in this process, to give each after the first its own subfolder.
std::atomic<int> reportingEngines{0};

// The name the next engine of this thread takes (nameNextEngine), and the report file of the
// last engine this thread constructed (lastEngineReportFile).
thread_local std::string pendingEngineName;
thread_local std::string lastReportFile;

// With autoReport on and PVTI_OPTIONS unset, the host trace of the process goes beside the
// reports, so a captured run has both halves of its timeline.
void traceBesideReports(const std::filesystem::path& directory) {
    static std::once_flag once;
    std::call_once(once, [&] {
        if (std::getenv("PVTI_OPTIONS") || tilescope::capture::HostTracer::instance().enabled())
            return;
        tilescope::capture::TraceOptions o;
        o.enable = true;
        o.directory = directory;
        tilescope::capture::HostTracer::restart(o);
    });
}

/// target.saveArchive and debug.loweredVarDumpFile, written once the graph is compiled (also
/// when it is out of memory, like the report).
void writeRequestedFiles(const tilescope::capture::EngineOptions& o,
                         const tilescope::capture::CompileRecords& records) {
    try {
        if (!o.loweredVarDumpFile.empty())
            tilescope::capture::writeLoweredVarDump(o.loweredVarDumpFile, records);
        if (!o.saveArchive.empty())
            tilescope::capture::writeGraphArchive(o.saveArchive, records);
    } catch (const tilescope::capture::OutputFileError& e) {
        throw poplar_error(e.what());
    }
}

} // namespace

} // namespace poplar

namespace tilescope::sim {

poplar::graph_memory_allocation_error outOfMemoryError(const capture::CompileRecords& r) {
    std::uint32_t worst = r.tilesOutOfMemory.front();
    for (auto t : r.tilesOutOfMemory)
        if (r.memory.tileTotal(t) > r.memory.tileTotal(worst))
            worst = t;
    const std::uint64_t used = r.memory.tileTotal(worst);
    const std::uint64_t limit = r.target.bytesPerTile;
    const std::uint64_t excess = used > limit ? used - limit : 0;
    std::vector<std::pair<std::uint64_t, std::string>> largest;
    for (const auto& v : r.variables)
        if (v.bytesPerTile[worst])
            largest.emplace_back(v.bytesPerTile[worst], v.name);
    std::sort(largest.rbegin(), largest.rend());
    std::string items;
    for (std::size_t i = 0; i < std::min<std::size_t>(3, largest.size()); ++i)
        items += (i ? ", " : "") + std::string("'") + largest[i].second + "' (" +
                 groupDigits(largest[i].first) + " bytes)";
    return poplar::graph_memory_allocation_error(
        "Out of memory: tile " + std::to_string(worst) + " needs " + groupDigits(used) +
            " bytes but has " + groupDigits(limit) + " (" + groupDigits(excess) + " bytes over); " +
            std::to_string(r.tilesOutOfMemory.size()) + " tile(s) out of memory" +
            (items.empty() ? std::string() : "; largest variables on the tile: " + items) +
            ". Set engine option debug.allowOutOfMemory to keep the compile results for a "
            "profile.",
        worst, excess);
}

} // namespace tilescope::sim

namespace poplar {

using sim::outOfMemoryError;

struct Engine::Impl {
    tilescope::capture::EngineOptions options;
    std::string name; ///< from tilescope::sim::nameNextEngine; "" when unnamed
    std::unique_ptr<tilescope::capture::ProfileCapture> capture;
    std::unique_ptr<pvti::Series> hostMemory;
    std::shared_ptr<const sim::CompiledGraph> compiled;
    /// Every replica's device state, from load(); `bsp` is the profiled replica's.
    std::unique_ptr<sim::ReplicaGroup> replicas;
    sim::BspEngine* bsp = nullptr;
    std::ostream* print = &std::cout;
    tilescope::capture::ExecutionRecords noRuns;
    bool executionProfiling = true;
    std::uint64_t cyclesSinceLoad = 0; ///< the device's cycle counter, for getTimeStamp

    sim::StreamBindings streams; ///< every connection, bound again at each load()

    unsigned numReplicas() const { return std::max(1u, compiled->model->replicationFactor); }
    void connect(sim::StreamBindings::Binding b) {
        streams.connect(*compiled->model, std::move(b), replicas.get());
    }
};

Engine::Engine(const Graph& graph, ArrayRef<program::Program> programs, const OptionFlags& options,
               ProgressFunc progressCallBack)
    : impl_(std::make_unique<Impl>()) {
    configure({options.begin(), options.end()});
    pvti::Tracepoint construct(&compileChannel, "Engine::Engine");
    if (programs.empty())
        throw poplar_error("Engine: at least one program is needed");
    std::vector<sim::ProgramNodePtr> nodes;
    for (const auto& p : programs)
        nodes.push_back(p.node());
    sim::CompileOptions co;
    co.instrument = impl_->options.instrument;
    co.blocks = sim::blockSettingsOf(impl_->options);
    co.graphIdentity = graph.model().get();
    if (progressCallBack)
        progressCallBack(0, 1);
    // Compile a snapshot: later changes to the graph must not affect this engine, as in Poplar.
    std::shared_ptr<const sim::GraphModel> snapshot;
    {
        pvti::Tracepoint copy(&compileChannel, "compile: graph snapshot");
        snapshot = std::make_shared<const sim::GraphModel>(*graph.model());
    }
    std::shared_ptr<const sim::CompiledGraph> compiled;
    {
        pvti::Tracepoint compile(&compileChannel, "compile");
        compiled = sim::GraphCompiler::compile(std::move(snapshot), nodes, co);
    }
    if (progressCallBack)
        progressCallBack(1, 1);
    adopt(std::move(compiled));
}

Engine::Engine(Executable&& exe, const OptionFlags& options) : impl_(std::make_unique<Impl>()) {
    const auto image = exe.image();
    if (!image)
        throw poplar_error("Engine: the executable is empty (default-constructed or moved from)");
    exe = Executable(); // consumed, as in Poplar
    // Compile-time options are the executable's; the rest may be given (or changed) here.
    std::map<std::string, std::string> merged(image->compileOptions.begin(),
                                              image->compileOptions.end());
    for (const auto& [k, v] : options)
        if (!sim::isCompileTimeOption(k))
            merged[k] = v;
    configure({merged.begin(), merged.end()});
    pvti::Tracepoint construct(&compileChannel, "Engine::Engine");
    adopt(image->compiled);
}

void Engine::configure(const std::vector<std::pair<std::string, std::string>>& options) {
    impl_->name = std::exchange(pendingEngineName, std::string());
    lastReportFile.clear();
    impl_->options = sim::parseEngineOptions(options, std::getenv("POPLAR_ENGINE_OPTIONS"));
    try { // PVTI_OPTIONS is read on first use; report it like the engine's own options
        tilescope::capture::HostTracer::instance();
    } catch (const tilescope::capture::OptionsError& e) {
        throw invalid_option(e.what());
    }
    if (impl_->options.autoReport())
        startCapture();
}

void Engine::adopt(std::shared_ptr<const sim::CompiledGraph> compiled) {
    impl_->compiled = std::move(compiled);
    if (impl_->options.replicaToProfile >= impl_->numReplicas())
        throw invalid_option("profiler.replicaToProfile: replica " +
                             std::to_string(impl_->options.replicaToProfile) +
                             " is out of range: the graph has " +
                             std::to_string(impl_->numReplicas()) + " replica(s)");
    // Lightweight-profiling options are checked against the graph now, not at the first load().
    if (const auto blocks = sim::blockSettingsOf(impl_->options); blocks.enabled())
        sim::BlockRecorder check(*impl_->compiled, blocks);
    // The compile profile is written before an out-of-memory error is raised: a report of a
    // graph that does not fit is what the user needs to see why.
    if (impl_->capture) {
        pvti::Tracepoint write(&compileChannel, "writeCompileProfile");
        impl_->capture->writeCompilation(impl_->compiled->records);
    }
    writeRequestedFiles(impl_->options, impl_->compiled->records);
    if (!impl_->compiled->records.tilesOutOfMemory.empty() && !impl_->options.allowOutOfMemory)
        throw outOfMemoryError(impl_->compiled->records);
}

void Engine::startCapture() {
    namespace fs = std::filesystem;
    const auto& o = impl_->options;
    fs::path dir = o.directory;
    const int index = reportingEngines.fetch_add(1);
    const std::string name =
        impl_->name.empty() ? "engine" + std::to_string(index + 1) : impl_->name;
    // A name is one folder inside autoReport.directory: it may not leave it.
    const fs::path sub(name);
    if (sub.is_absolute() || std::find(sub.begin(), sub.end(), fs::path("..")) != sub.end())
        throw invalid_option("autoReport: the engine's name '" + name +
                             "' is not a folder name inside autoReport.directory");
    if (!impl_->name.empty() || index > 0)
        dir /= name;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
        throw invalid_option("autoReport.directory: cannot create '" + dir.string() +
                             "': " + ec.message());
    tilescope::capture::ProfileCaptureSettings settings;
    settings.file = dir / "profile.pop";
    settings.engineName = name;
    lastReportFile = settings.file.string();
    settings.commandLine = tilescope::capture::processCommandLine();
    settings.poplarVersion = "TileScope simulator 0.1.0";
    settings.options = o.inForce;
    settings.graphProfile = o.graphProfile;
    settings.executionProfile = o.executionProfile;
    settings.variables = o.loweredVars;
    settings.debugInfo = o.debugInfo;
    settings.flopEstimates = o.includeFlopEstimates;
    settings.storedRuns = o.storedRuns;
    settings.instrumentationLevel = o.instrumentationLevel;
    if (o.executionProfile)
        traceBesideReports(o.directory);
    try {
        impl_->capture = std::make_unique<tilescope::capture::ProfileCapture>(settings);
    } catch (const std::exception& e) {
        throw poplar_error(std::string("autoReport: ") + e.what());
    }
}

Engine::Engine(const Graph& graph, const program::Program& program, const OptionFlags& options,
               ProgressFunc progressCallBack)
    : Engine(graph, ArrayRef<program::Program>(&program, 1), options, std::move(progressCallBack)) {
}

Engine::Engine(Engine&&) noexcept = default;

} // namespace poplar

void tilescope::sim::nameNextEngine(const std::string& name) {
    poplar::pendingEngineName = name;
}

std::string tilescope::sim::lastEngineReportFile() {
    return poplar::lastReportFile;
}

namespace poplar {

Engine& Engine::operator=(Engine&&) noexcept = default;
Engine::~Engine() = default;

void Engine::load(const Device& device) {
    pvti::Tracepoint trace(&engineChannel, "Engine::load");
    if (!device.isAttached())
        throw poplar_error("Engine::load: device " + std::to_string(device.getId()) +
                           " is not attached; call Device::attach() (and check that it returns "
                           "true) before loading");
    if (!impl_->compiled->records.tilesOutOfMemory.empty())
        throw outOfMemoryError(impl_->compiled->records);
    const auto& model = *impl_->compiled->model;
    const unsigned replicas = impl_->numReplicas();
    if (replicas > 1 && device.getTarget().getNumIPUs() != model.target.numIpus * replicas)
        throw poplar_error("Engine::load: the graph runs as " + std::to_string(replicas) +
                           " replicas of " + std::to_string(model.target.numIpus) +
                           " IPU(s), but device " + std::to_string(device.getId()) + " has " +
                           std::to_string(device.getTarget().getNumIPUs()) + " IPU(s)");
    impl_->bsp = nullptr;
    impl_->replicas.reset();
    impl_->replicas =
        std::make_unique<sim::ReplicaGroup>(impl_->compiled, replicas, impl_->options.hostThreads);
    impl_->bsp = &impl_->replicas->replica(impl_->options.replicaToProfile);
    impl_->cyclesSinceLoad = 0;
    for (unsigned r = 0; r < replicas; ++r) {
        auto& bsp = impl_->replicas->replica(r);
        const bool profiled = &bsp == impl_->bsp;
        bsp.setPrintStream(*impl_->print);
        // Every replica runs; only the profiled one records (the report shows one replica).
        bsp.setRecording(profiled && impl_->executionProfiling);
        bsp.setStepRecordRuns(impl_->options.storedRuns);
        bsp.setStreamPrefetch(impl_->options.streamPrefetch);
        if (const auto blocks = sim::blockSettingsOf(impl_->options); blocks.enabled() && profiled)
            bsp.setBlockRecorder(std::make_unique<sim::BlockRecorder>(*impl_->compiled, blocks));
    }
    impl_->streams.bindAll(model, *impl_->replicas);
}

namespace {
sim::BspEngine& loaded(sim::BspEngine* bsp, const char* what) {
    if (!bsp)
        throw poplar_error(std::string("Engine::") + what +
                           ": the engine is not loaded; call Engine::load(device) first");
    return *bsp;
}
} // namespace

void Engine::run(unsigned prog, const std::string& debugName) {
    pvti::Tracepoint trace(&engineChannel, debugName.empty() ? "Engine::run" : debugName);
    auto& bsp = loaded(impl_->bsp, "run");
    impl_->replicas->run(prog);
    impl_->cyclesSinceLoad += bsp.lastRunCycles();
    if (impl_->capture && impl_->executionProfiling && !bsp.records().runs.empty()) {
        pvti::Tracepoint write(&engineChannel, "writeExecutionProfile");
        impl_->capture->writeRun(bsp.records().runs.back());
    }
    if (!impl_->hostMemory && tilescope::capture::HostTracer::instance().enabled()) {
        static pvti::Graph memory("Host memory", "bytes");
        impl_->hostMemory = std::make_unique<pvti::Series>(memory.addSeries("resident"));
    }
    if (impl_->hostMemory)
        impl_->hostMemory->add(residentBytes());
}

Engine::TimerTimePoint Engine::getTimeStamp() const {
    TimerTimePoint t;
    t.deviceCycles = impl_->cyclesSinceLoad;
    t.host = std::chrono::steady_clock::now();
    return t;
}

std::string Engine::reportTiming(const TimerTimePoint& start, const TimerTimePoint& end) const {
    if (end.deviceCycles < start.deviceCycles || end.host < start.host)
        throw poplar_error("Engine::reportTiming: the end time stamp is earlier than the start");
    const std::uint64_t cycles = end.deviceCycles - start.deviceCycles;
    const double clockHz = impl_->compiled ? impl_->compiled->model->target.tileClockHz : 0.0;
    const double hostSeconds = std::chrono::duration<double>(end.host - start.host).count();
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << "Device: " << cycles << " cycles";
    if (clockHz > 0)
        os << " (" << cycles / clockHz * 1e6 << " us at " << clockHz / 1e6 << " MHz)";
    os << ", host: " << hostSeconds * 1e3 << " ms";
    return os.str();
}

void Engine::enableExecutionProfiling() {
    impl_->executionProfiling = true;
    if (impl_->bsp)
        impl_->bsp->setRecording(true);
}

void Engine::disableExecutionProfiling() {
    impl_->executionProfiling = false;
    if (impl_->bsp)
        impl_->bsp->setRecording(false);
}

namespace {
std::size_t handleBytes(const sim::GraphModel& m, StringRef handle, bool toDevice) {
    for (const auto& h : m.hostHandles)
        if (h.handle == handle && h.hostToDevice == toDevice)
            return h.tensor.numElements() * sim::elementSize(h.tensor.type);
    return 0; // the engine reports the unknown handle
}

/// Whether a host buffer of `bytes` holds one copy of a handle's tensor per replica.
bool perReplica(const sim::GraphModel& m, StringRef handle, bool toDevice, std::size_t bytes) {
    const std::size_t one = handleBytes(m, handle, toDevice);
    const unsigned n = std::max(1u, m.replicationFactor);
    return n > 1 && one > 0 && bytes == one * n;
}
} // namespace

void Engine::writeTensor(StringRef handle, const void* buf, const void* bufEnd) {
    pvti::Tracepoint trace(&engineChannel, "Engine::writeTensor");
    loaded(impl_->bsp, "writeTensor");
    const auto* begin = static_cast<const std::byte*>(buf);
    const auto bytes = static_cast<std::size_t>(static_cast<const std::byte*>(bufEnd) - begin);
    const auto& m = *impl_->compiled->model;
    const bool each = perReplica(m, handle, true, bytes);
    const std::size_t part = each ? bytes / impl_->replicas->size() : bytes;
    for (unsigned r = 0; r < impl_->replicas->size(); ++r) {
        const auto* from = each ? begin + r * part : begin;
        impl_->replicas->replica(r).writeHandle(std::string(handle), from, from + part);
    }
}

void Engine::readTensor(StringRef handle, void* buf, void* bufEnd) {
    pvti::Tracepoint trace(&engineChannel, "Engine::readTensor");
    loaded(impl_->bsp, "readTensor");
    auto* begin = static_cast<std::byte*>(buf);
    const auto bytes = static_cast<std::size_t>(static_cast<std::byte*>(bufEnd) - begin);
    const auto& m = *impl_->compiled->model;
    if (!perReplica(m, handle, false, bytes)) {
        impl_->replicas->replica(0).readHandle(std::string(handle), buf, bufEnd);
        return;
    }
    const std::size_t part = bytes / impl_->replicas->size();
    for (unsigned r = 0; r < impl_->replicas->size(); ++r)
        impl_->replicas->replica(r).readHandle(std::string(handle), begin + r * part,
                                               begin + (r + 1) * part);
}

void Engine::writeTensor(StringRef handle, const void* buf) {
    const auto n = handleBytes(*impl_->compiled->model, handle, true);
    writeTensor(handle, buf, static_cast<const std::byte*>(buf) + n);
}

void Engine::readTensor(StringRef handle, void* buf) {
    const auto n = handleBytes(*impl_->compiled->model, handle, false);
    readTensor(handle, buf, static_cast<std::byte*>(buf) + n);
}

void Engine::connectStream(StringRef handle, void* begin, void* end) {
    sim::StreamBindings::Binding b;
    b.handle = std::string(handle);
    b.begin = begin;
    b.end = end;
    impl_->connect(std::move(b));
}

void Engine::connectStream(StringRef handle, void* p) {
    const auto& m = *impl_->compiled->model;
    std::size_t bytes = 0;
    for (const auto& s : m.streams)
        if (s.handle == handle)
            bytes = s.numElements * sim::elementSize(s.type) *
                    (s.hostToDevice && s.broadcast ? 1 : impl_->numReplicas());
    connectStream(handle, p, static_cast<std::byte*>(p) + bytes);
}

void Engine::checkReplica(unsigned replica, const char* what, const std::string& handle) const {
    const unsigned n = impl_->numReplicas();
    if (replica >= n)
        throw index_error(std::string(what) + ": replica " + std::to_string(replica) + " of '" +
                          handle + "' is out of range: " +
                          (n == 1 ? std::string("the graph is not replicated (1 replica)")
                                  : "the graph has " + std::to_string(n) + " replicas"));
}

void Engine::connectStreamToCallback(StringRef handle, StreamCallbackHandle f) {
    sim::StreamBindings::Binding b;
    b.handle = std::string(handle);
    b.callback = f.release();
    if (!b.callback)
        throw stream_connection_error("connectStreamToCallback: no callback given for stream '" +
                                      b.handle + "'");
    impl_->connect(std::move(b));
}

void Engine::connectStreamToCallback(StringRef handle, unsigned index, StreamCallbackHandle f) {
    sim::StreamBindings::Binding b;
    b.handle = std::string(handle);
    checkReplica(index, "connectStreamToCallback", b.handle);
    b.replica = static_cast<int>(index);
    b.callback = f.release();
    if (!b.callback)
        throw stream_connection_error("connectStreamToCallback: no callback given for stream '" +
                                      b.handle + "'");
    impl_->connect(std::move(b));
}

void Engine::copyToRemoteBuffer(const void* data, const std::string& handle,
                                std::uint64_t repeatIndex, unsigned replica) {
    pvti::Tracepoint trace(&engineChannel, "Engine::copyToRemoteBuffer");
    checkReplica(replica, "copyToRemoteBuffer", handle);
    loaded(impl_->bsp, "copyToRemoteBuffer");
    impl_->replicas->replica(replica).writeRemoteBuffer(handle, data, repeatIndex);
}

void Engine::copyFromRemoteBuffer(const std::string& handle, void* data, std::uint64_t repeatIndex,
                                  unsigned replica) {
    pvti::Tracepoint trace(&engineChannel, "Engine::copyFromRemoteBuffer");
    checkReplica(replica, "copyFromRemoteBuffer", handle);
    loaded(impl_->bsp, "copyFromRemoteBuffer");
    impl_->replicas->replica(replica).readRemoteBuffer(handle, data, repeatIndex);
}

void Engine::printProfileSummary(std::ostream& outputStream, const OptionFlags& opt) const {
    sim::ProfileSummaryOptions o;
    for (const auto& [k, v] : opt) {
        if (k != "showExecutionSteps" && k != "showVarStorage")
            throw invalid_option("printProfileSummary: unrecognised option '" + k +
                                 "' (known: showExecutionSteps, showVarStorage)");
        if (v != "true" && v != "false")
            throw invalid_option("printProfileSummary: option '" + k +
                                 "' must be \"true\" or \"false\", got \"" + v + "\"");
        (k == "showExecutionSteps" ? o.showExecutionSteps : o.showVarStorage) = v == "true";
    }
    sim::printProfileSummary(outputStream, compileRecords(), executionRecords(), o);
}

void Engine::setPrintStream(std::ostream& stream) {
    impl_->print = &stream;
    if (impl_->replicas)
        for (unsigned r = 0; r < impl_->replicas->size(); ++r)
            impl_->replicas->replica(r).setPrintStream(stream);
}

const tilescope::capture::CompileRecords& Engine::compileRecords() const {
    return impl_->compiled->records;
}

const tilescope::capture::ExecutionRecords& Engine::executionRecords() const {
    return impl_->bsp ? impl_->bsp->records() : impl_->noRuns;
}

} // namespace poplar
