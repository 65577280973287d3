#include "tilescope/sim/BspEngine.hpp"

#include "BspEngineImpl.hpp"
#include "poplar/exceptions.hpp"
#include "tilescope/sim/ElementConversion.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iostream>
#include <new>

namespace tilescope::sim {

using capture::ProgramKind;

namespace {

std::int64_t nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace

BspEngine::Impl::Impl(std::shared_ptr<const CompiledGraph> g, unsigned threads, unsigned replica)
    : graph(std::move(g)), model(*graph->model), remoteBuffers(model),
      arena(threads ? static_cast<int>(threads) : tbb::task_arena::automatic) {
    storage.resize(model.variables.size());
    for (std::size_t v = 0; v < model.variables.size(); ++v) {
        const auto& var = model.variables[v];
        const std::size_t bytes = var.numElements * elementSize(var.type);
        storage[v].assign((bytes + 7) / 8, 0);
        if (!var.initialValue.empty())
            std::memcpy(storage[v].data(), var.initialValue.data(), bytes);
        if (var.replicationIndex) // Graph::addReplicationIndexConstant: this replica's index
            storeElement(var.type, storage[v].data(), replica);
    }
    streams.resize(model.streams.size());
    bases.resize(storage.size());
    for (std::size_t v = 0; v < storage.size(); ++v)
        bases[v] = reinterpret_cast<std::byte*>(storage[v].data());
    vertexCycles.assign(model.target.numTiles(), 0);
    bindVertices();
    planComputeSets();
    planCopies();
    for (const auto& step : graph->records.steps) {
        const auto& c = step.estimatedCyclesPerTile;
        stepCycles.push_back(std::make_shared<const capture::PerTile>(c));
        stepMaxCycles.push_back(c.empty() ? 0 : *std::max_element(c.begin(), c.end()));
    }
}

BspEngine::Impl::~Impl() {
    // Prefetched data is dropped without calling the callbacks: objects they refer to may
    // already be gone when the engine is destroyed (StreamConnection has no destructor).
    for (auto& v : vertices) {
        v.type->info.destroy(v.object);
        ::operator delete(v.object, std::align_val_t(v.type->info.alignment));
    }
}

std::byte* BspEngine::Impl::elementPtr(std::uint32_t var, std::uint64_t element) {
    return reinterpret_cast<std::byte*>(storage[var].data()) +
           element * elementSize(model.variables[var].type);
}

bool BspEngine::Impl::onOtherTile(const TensorView& view, std::int32_t tile) const {
    for (const auto& r : view.ranges) {
        const auto& tileOf = model.variables[r.variable].tileOf;
        for (auto e = r.begin; e < r.end; ++e)
            if (tileOf[e] != tile)
                return true;
    }
    return false;
}

abi::Span BspEngine::Impl::bindItem(const TensorView& view, const FieldDescriptor& fd,
                                    VertexInstance& inst, std::int32_t tile) {
    const auto n = static_cast<std::uint32_t>(view.numElements());
    inst.edgeElements += n;
    const bool remote = onOtherTile(view, tile);
    if (view.ranges.size() <= 1 && !remote)
        return {view.ranges.empty() ? nullptr
                                    : elementPtr(view.ranges[0].variable, view.ranges[0].begin),
                n};
    Staging s;
    s.viewPtr = &view;
    s.buffer.resize(static_cast<std::size_t>(n) * elementSize(view.type));
    s.in = fd.reads();
    s.out = fd.writes();
    s.remote = remote;
    inst.stagings.push_back(static_cast<std::uint32_t>(stagings.size()));
    stagings.push_back(std::move(s));
    return {stagings.back().buffer.data(), n};
}

void BspEngine::Impl::bindVertices() {
    struct Binder final : abi::FieldVisitor {
        Impl* self;
        const VertexInfo* vertex;
        VertexInstance* inst;
        std::size_t index = 0;
        void field(const abi::FieldInfo& info) override {
            const auto& fd = inst->type->fields[index];
            const auto& b = vertex->fields[index];
            ++index;
            if (!fd.isEdge()) {
                if (fd.shape == abi::FieldShape::Scalar) {
                    if (!b.stateValue.empty())
                        std::memcpy(info.storage, b.stateValue.data(), elementSize(fd.elementType));
                } else {
                    self->stateVectors.push_back(b.stateValue);
                    *static_cast<abi::Span*>(info.storage) = {
                        self->stateVectors.back().data(), static_cast<std::uint32_t>(b.stateCount)};
                }
                return;
            }
            if (fd.shape != abi::FieldShape::List) {
                *static_cast<abi::Span*>(info.storage) =
                    self->bindItem(*b.items[0], fd, *inst, vertex->tile);
                return;
            }
            auto spans = std::make_unique<abi::Span[]>(b.items.size());
            for (std::size_t i = 0; i < b.items.size(); ++i)
                spans[i] = self->bindItem(*b.items[i], fd, *inst, vertex->tile);
            *static_cast<abi::SpanList*>(info.storage) = {
                spans.get(), static_cast<std::uint32_t>(b.items.size())};
            self->spanLists.push_back(std::move(spans));
        }
    };
    // Staging buffers must not move once bound: reserve for the worst case first.
    std::size_t maxStagings = 0;
    for (const auto& v : model.vertices)
        for (const auto& f : v.fields)
            maxStagings += f.items.size();
    stagings.reserve(maxStagings);
    std::size_t stateVectorCount = 0;
    for (const auto& v : model.vertices)
        stateVectorCount += v.fields.size();
    stateVectors.reserve(stateVectorCount);

    vertices.resize(model.vertices.size());
    for (std::size_t id = 0; id < model.vertices.size(); ++id) {
        const auto& v = model.vertices[id];
        auto& inst = vertices[id];
        inst.type = &model.vertexTypes.at(v.type);
        const auto& info = inst.type->info;
        inst.object = ::operator new(info.size, std::align_val_t(info.alignment));
        info.construct(inst.object);
        Binder binder;
        binder.self = this;
        binder.vertex = &v;
        binder.inst = &inst;
        info.visitFields(inst.object, binder);
    }
}

void BspEngine::Impl::gatherInto(const TensorView& t, std::byte* out) const {
    const unsigned size = elementSize(t.type);
    for (const auto& r : t.ranges) {
        const auto* src = reinterpret_cast<const std::byte*>(storage[r.variable].data());
        std::memcpy(out, src + r.begin * size, r.size() * size);
        out += r.size() * size;
    }
}

void BspEngine::Impl::scatterFrom(const TensorView& t, const std::byte* in) {
    const unsigned size = elementSize(t.type);
    for (const auto& r : t.ranges) {
        std::memcpy(elementPtr(r.variable, r.begin), in, r.size() * size);
        in += r.size() * size;
    }
}

std::int64_t BspEngine::Impl::scalarValue(const TensorView& t) const {
    std::byte buf[8] = {};
    gatherInto(t, buf);
    return loadElementAsInteger(t.type, buf);
}

std::size_t BspEngine::Impl::maxChunks() const {
    return static_cast<std::size_t>(std::max(1, arena.max_concurrency())) * 4;
}

void BspEngine::Impl::planComputeSets() {
    computeSetPlans.reserve(graph->computeSetGroups.size());
    for (const auto& groups : graph->computeSetGroups)
        computeSetPlans.push_back(planComputeSet(groups, vertices, stagings,
                                                 model.target.numWorkerContexts, maxChunks()));
}

void BspEngine::Impl::planCopies() {
    copyExecutions.resize(graph->copies.size());
    for (std::size_t i = 0; i < graph->copies.size(); ++i)
        planCopy(graph->copies[i], bases, copyExecutions[i]);
}

BspEngine::BspEngine(std::shared_ptr<const CompiledGraph> graph, unsigned hostThreads,
                     unsigned replica)
    : impl_(std::make_unique<Impl>(std::move(graph), hostThreads, replica)), print_(&std::cout) {
    impl_->crossReplica = &crossReplica_;
}

BspEngine::~BspEngine() = default;

void BspEngine::run(unsigned program) {
    const auto& entries = impl_->graph->entryPoints;
    if (program >= entries.size())
        throw poplar::index_error("Engine::run: program index " + std::to_string(program) +
                                  " is out of range: the engine has " +
                                  std::to_string(entries.size()) + " programs");
    capture::RunRecord unrecorded; // a run while execution profiling is disabled
    if (recording_)
        records_.runs.emplace_back();
    auto& run = recording_ ? records_.runs.back() : unrecorded;
    run.programIndex = program;
    bool keepSteps = false;
    if (recording_) {
        runsOfProgram_.resize(entries.size(), 0);
        keepSteps = runsOfProgram_[program]++ < stepRecordRuns_;
        run.stepsRecorded = keepSteps;
    }
    if (keepSteps) {
        // A program usually runs the same steps each time: size the record once, not by
        // doubling through millions of steps.
        run.steps.reserve(impl_->stepsPerRun[program]);
    }
    run.hostStartNs = nowNs();
    impl_->run = keepSteps ? &run : nullptr;
    impl_->cycle = 0;
    auto* blocks = impl_->blocks.get();
    if (blocks)
        blocks->beginRun(run);
    try {
        impl_->execute(*entries[program], *print_);
    } catch (...) {
        run.hostEndNs = nowNs();
        run.totalCycles = impl_->cycle;
        if (blocks)
            blocks->endRun(impl_->cycle);
        throw;
    }
    run.hostEndNs = nowNs();
    run.totalCycles = impl_->cycle;
    if (keepSteps)
        impl_->stepsPerRun[program] = run.steps.size();
    if (blocks)
        blocks->endRun(impl_->cycle);
}

std::uint64_t BspEngine::lastRunCycles() const {
    return impl_->cycle;
}

void BspEngine::setBlockRecorder(std::unique_ptr<BlockRecorder> recorder) {
    impl_->blocks = std::move(recorder);
}

namespace {
const HostHandleInfo& findHandle(const GraphModel& m, const std::string& handle, bool toDevice) {
    for (const auto& h : m.hostHandles)
        if (h.handle == handle && h.hostToDevice == toDevice)
            return h;
    throw poplar::poplar_error(
        std::string(toDevice ? "writeTensor" : "readTensor") + ": no host " +
        (toDevice ? "write" : "read") + " handle '" + handle +
        "' (create it with Graph::" + (toDevice ? "createHostWrite" : "createHostRead") + ")");
}

void checkSize(const std::string& what, const std::string& handle, const TensorView& t,
               std::size_t bytes) {
    const std::size_t expected = t.numElements() * elementSize(t.type);
    if (bytes != expected)
        throw poplar::poplar_error(what + ": buffer for handle '" + handle + "' has " +
                                   std::to_string(bytes) + " bytes but tensor '" + t.name +
                                   "' needs " + std::to_string(expected));
}
} // namespace

void BspEngine::writeHandle(const std::string& handle, const void* begin, const void* end) {
    const auto& h = findHandle(impl_->model, handle, true);
    checkSize("writeTensor", handle, h.tensor,
              static_cast<std::size_t>(static_cast<const std::byte*>(end) -
                                       static_cast<const std::byte*>(begin)));
    impl_->scatterFrom(h.tensor, static_cast<const std::byte*>(begin));
}

void BspEngine::readHandle(const std::string& handle, void* begin, void* end) const {
    const auto& h = findHandle(impl_->model, handle, false);
    checkSize(
        "readTensor", handle, h.tensor,
        static_cast<std::size_t>(static_cast<std::byte*>(end) - static_cast<std::byte*>(begin)));
    impl_->gatherInto(h.tensor, static_cast<std::byte*>(begin));
}

void BspEngine::connectStream(const std::string& handle, void* begin, void* end) {
    const auto id = checkStreamBuffer(impl_->model, handle, begin, end);
    impl_->streams[id].connectBuffer(static_cast<std::byte*>(begin), static_cast<std::byte*>(end));
}

void BspEngine::setStreamPrefetch(bool prefetch) {
    for (auto& s : impl_->streams)
        s.setPrefetch(prefetch);
}

void BspEngine::connectStreamCallback(const std::string& handle, StreamCallback callback) {
    impl_->streams[findStream(impl_->model, handle)].connectCallback(std::move(callback));
}

void BspEngine::writeRemoteBuffer(const std::string& handle, const void* data,
                                  std::uint64_t repeat) {
    const auto id = impl_->remoteBuffers.find(handle, "copyToRemoteBuffer");
    impl_->remoteBuffers.write(id, {repeat}, static_cast<const std::byte*>(data),
                               "copyToRemoteBuffer");
}

void BspEngine::readRemoteBuffer(const std::string& handle, void* data,
                                 std::uint64_t repeat) const {
    const auto id = impl_->remoteBuffers.find(handle, "copyFromRemoteBuffer");
    impl_->remoteBuffers.read(id, {repeat}, static_cast<std::byte*>(data), "copyFromRemoteBuffer");
}

std::vector<std::byte> BspEngine::gather(const TensorView& t) const {
    std::vector<std::byte> out(t.numElements() * elementSize(t.type));
    impl_->gatherInto(t, out.data());
    return out;
}

void BspEngine::scatter(const TensorView& t, const std::byte* bytes) {
    impl_->scatterFrom(t, bytes);
}

} // namespace tilescope::sim
