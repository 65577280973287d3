#include "tilescope/sim/BspEngine.hpp"

#include "ExecutionPlans.hpp"
#include "HostTransfers.hpp"
#include "poplar/exceptions.hpp"
#include "tilescope/sim/ElementConversion.hpp"
#include "tilescope/sim/TensorPrinter.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <iostream>
#include <new>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>
#include <unordered_map>

namespace tilescope::sim {

using capture::ProgramKind;

namespace {

std::int64_t nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

/// Where tilescope_vertex_add_cycles adds: the running tile's extra cycles, or nowhere.
thread_local std::uint64_t* vertexCyclesSink = nullptr;

/// Points the hook at one tile's counter while its vertices run.
struct CurrentVertexCycles {
    explicit CurrentVertexCycles(std::uint64_t* sink) { vertexCyclesSink = sink; }
    ~CurrentVertexCycles() { vertexCyclesSink = nullptr; }
    CurrentVertexCycles(const CurrentVertexCycles&) = delete;
    CurrentVertexCycles& operator=(const CurrentVertexCycles&) = delete;
};

} // namespace

extern "C" __attribute__((visibility("default"))) void
tilescope_vertex_add_cycles(std::uint64_t tileCycles) {
    if (vertexCyclesSink)
        *vertexCyclesSink += tileCycles;
}

struct BspEngine::Impl {
    std::shared_ptr<const CompiledGraph> graph;
    const GraphModel& model;
    std::vector<std::vector<std::uint64_t>> storage; ///< per variable, 8-byte aligned
    std::vector<VertexInstance> vertices;
    std::vector<Staging> stagings;
    std::vector<std::unique_ptr<abi::Span[]>> spanLists;
    std::vector<std::vector<std::byte>> stateVectors;
    std::vector<StreamConnection> streams;
    RemoteBufferStore remoteBuffers;
    tbb::task_arena arena;
    CopyPlan::Bases bases; ///< storage address of each variable
    std::vector<ComputeSetPlan> computeSetPlans;
    std::vector<CopyExecution> copyExecutions;
    /// Per step: the compiled cycles per tile, shared by every record of the step, and their max.
    std::vector<std::shared_ptr<const capture::PerTile>> stepCycles;
    std::vector<std::uint64_t> stepMaxCycles;
    capture::RunRecord* run = nullptr;
    std::uint64_t cycle = 0;
    /// Steps the last recorded run of each entry point executed.
    std::unordered_map<unsigned, std::size_t> stepsPerRun;
    std::unordered_map<const ProgramNode*, std::vector<const std::vector<std::uint32_t>*>>
        sequenceLeaves;
    std::unique_ptr<BlockRecorder> blocks; ///< lightweight profiling, when selected
    /// Cycles vertices added to their tile in the last compute set (tilescope_vertex_add_cycles).
    std::vector<std::uint64_t> vertexCycles;
    bool anyVertexCycles = false;

    Impl(std::shared_ptr<const CompiledGraph> g, unsigned threads)
        : graph(std::move(g)), model(*graph->model),
          remoteBuffers(model),
          arena(threads ? static_cast<int>(threads) : tbb::task_arena::automatic) {
        storage.resize(model.variables.size());
        for (std::size_t v = 0; v < model.variables.size(); ++v) {
            const auto& var = model.variables[v];
            const std::size_t bytes = var.numElements * elementSize(var.type);
            storage[v].assign((bytes + 7) / 8, 0);
            if (!var.initialValue.empty())
                std::memcpy(storage[v].data(), var.initialValue.data(), bytes);
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

    ~Impl() {
        // Prefetched data is dropped without calling the callbacks: objects they refer to may
        // already be gone when the engine is destroyed (StreamConnection has no destructor).
        for (auto& v : vertices) {
            v.type->info.destroy(v.object);
            ::operator delete(v.object, std::align_val_t(v.type->info.alignment));
        }
    }

    std::byte* elementPtr(std::uint32_t var, std::uint64_t element) {
        return reinterpret_cast<std::byte*>(storage[var].data()) +
               element * elementSize(model.variables[var].type);
    }

    bool onOtherTile(const TensorView& view, std::int32_t tile) const {
        for (const auto& r : view.ranges) {
            const auto& tileOf = model.variables[r.variable].tileOf;
            for (auto e = r.begin; e < r.end; ++e)
                if (tileOf[e] != tile)
                    return true;
        }
        return false;
    }

    abi::Span bindItem(const TensorView& view, const FieldDescriptor& fd, VertexInstance& inst,
                       std::int32_t tile) {
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

    /// Creates every vertex object and points its fields at tensor storage.
    void bindVertices() {
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
                            std::memcpy(info.storage, b.stateValue.data(),
                                        elementSize(fd.elementType));
                    } else {
                        self->stateVectors.push_back(b.stateValue);
                        *static_cast<abi::Span*>(info.storage) = {
                            self->stateVectors.back().data(),
                            static_cast<std::uint32_t>(b.stateCount)};
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

    void gatherInto(const TensorView& t, std::byte* out) const {
        const unsigned size = elementSize(t.type);
        for (const auto& r : t.ranges) {
            const auto* src = reinterpret_cast<const std::byte*>(storage[r.variable].data());
            std::memcpy(out, src + r.begin * size, r.size() * size);
            out += r.size() * size;
        }
    }

    void scatterFrom(const TensorView& t, const std::byte* in) {
        const unsigned size = elementSize(t.type);
        for (const auto& r : t.ranges) {
            std::memcpy(elementPtr(r.variable, r.begin), in, r.size() * size);
            in += r.size() * size;
        }
    }

    std::int64_t scalarValue(const TensorView& t) const {
        std::byte buf[8] = {};
        gatherInto(t, buf);
        return loadElementAsInteger(t.type, buf);
    }

    /// Host threads the arena runs on: the chunk count of a compute set is a few per thread.
    std::size_t maxChunks() const {
        return static_cast<std::size_t>(std::max(1, arena.max_concurrency())) * 4;
    }

    void planComputeSets() {
        computeSetPlans.reserve(graph->computeSetGroups.size());
        for (const auto& groups : graph->computeSetGroups)
            computeSetPlans.push_back(planComputeSet(groups, vertices, stagings,
                                                     model.target.numWorkerContexts, maxChunks()));
    }

    void planCopies() {
        copyExecutions.resize(graph->copies.size());
        for (std::size_t i = 0; i < graph->copies.size(); ++i)
            planCopy(graph->copies[i], bases, copyExecutions[i]);
    }

    /// Calls fn(begin, end) for each chunk [starts[i], starts[i + 1]), spread over the arena's
    /// threads; one chunk runs on the calling thread without waking the others.
    template <typename Fn> void forEachChunk(const std::vector<std::uint32_t>& starts, Fn fn) {
        const std::size_t chunks = starts.empty() ? 0 : starts.size() - 1;
        if (chunks == 0)
            return;
        if (chunks == 1) {
            fn(starts[0], starts[1]);
            return;
        }
        arena.execute([&] {
            tbb::parallel_for(
                tbb::blocked_range<std::size_t>(0, chunks, 1),
                [&](const tbb::blocked_range<std::size_t>& r) {
                    for (auto i = r.begin(); i != r.end(); ++i)
                        fn(starts[i], starts[i + 1]);
                },
                tbb::simple_partitioner());
        });
    }

    void runComputeSet(std::uint32_t cs) {
        const auto& plan = computeSetPlans[cs];
        // Exchange in: remote inputs are read before any vertex of the compute set runs.
        forEachChunk(plan.remoteInChunkStart, [&](std::uint32_t b, std::uint32_t e) {
            for (auto i = b; i < e; ++i)
                plan.remoteIn[i]->gather(bases);
        });
        // Smallest failing vertex id, so the reported failure does not depend on scheduling.
        std::atomic<std::uint32_t> failed{UINT32_MAX};
        std::atomic<bool> added{false};
        forEachChunk(plan.chunkStart, [&](std::uint32_t b, std::uint32_t e) {
            // A chunk holds whole tiles, so each tile's counter is written by one thread.
            std::uint64_t extra = 0;
            const CurrentVertexCycles current(&extra);
            for (auto c = b; c < e; ++c) {
                const auto& call = plan.calls[c];
                for (auto i = call.firstIn; i < call.endIn; ++i)
                    plan.localIn[i]->gather(bases);
                bool ok = true;
                for (std::uint32_t w = 0; w < call.workers; ++w)
                    ok = call.compute(call.object, w) && ok;
                for (auto i = call.firstOut; i < call.endOut; ++i)
                    plan.localOut[i]->scatter(bases);
                if (extra) {
                    vertexCycles[call.tile] += extra;
                    extra = 0;
                    added = true;
                }
                if (!ok) {
                    auto cur = failed.load();
                    while (call.id < cur && !failed.compare_exchange_weak(cur, call.id)) {
                    }
                }
            }
        });
        anyVertexCycles = added;
        // Exchange out, in tile order so overlapping remote writes resolve deterministically.
        for (const auto* st : plan.remoteOut)
            st->scatter(bases);
        if (failed != UINT32_MAX) {
            const auto& v = model.vertices[failed];
            throw poplar::application_runtime_error(
                "Vertex " + std::to_string(failed.load()) + " of type '" +
                model.vertexTypes.at(v.type).name + "' on tile " + std::to_string(v.tile) +
                " in compute set '" + model.computeSets[cs].name +
                "' returned false from compute()");
        }
    }

    StreamConnection& connection(std::uint32_t stream) {
        auto& c = streams[stream];
        if (!c.connected())
            throw poplar::stream_connection_error(
                "Stream '" + model.streams[stream].handle +
                "' is not connected: call Engine::connectStream before running a program that "
                "copies through it");
        return c;
    }

    void streamCopy(const StreamCopyAction& a, bool toDevice) {
        auto& c = connection(a.stream);
        const std::size_t bytes = a.tensor.numElements() * elementSize(a.tensor.type);
        std::vector<std::byte> buf(bytes);
        if (toDevice) {
            c.toDevice(buf.data(), bytes);
            scatterFrom(a.tensor, buf.data());
        } else {
            gatherInto(a.tensor, buf.data());
            c.toHost(buf.data(), bytes);
        }
    }

    /// The rows of a remote buffer a copy moves: the offsets' values, or row 0.
    std::vector<std::uint64_t> remoteRows(const RemoteCopyAction& a) const {
        if (!a.offset)
            return {0};
        std::vector<std::byte> bytes(a.offset->numElements() * elementSize(a.offset->type));
        gatherInto(*a.offset, bytes.data());
        std::vector<std::uint64_t> rows(a.offset->numElements());
        const unsigned size = elementSize(a.offset->type);
        for (std::size_t i = 0; i < rows.size(); ++i)
            rows[i] = static_cast<std::uint64_t>(
                loadElementAsInteger(a.offset->type, bytes.data() + i * size));
        return rows;
    }

    void remoteCopy(const RemoteCopyAction& a, bool toDevice) {
        const auto& handle = model.remoteBuffers[a.buffer].handle;
        const auto rows = remoteRows(a);
        std::vector<std::byte> buf(a.tensor.numElements() * elementSize(a.tensor.type));
        if (toDevice) {
            remoteBuffers.read(a.buffer, rows, buf.data(),
                               "Copy from remote buffer '" + handle + "'");
            scatterFrom(a.tensor, buf.data());
        } else {
            gatherInto(a.tensor, buf.data());
            remoteBuffers.write(a.buffer, rows, buf.data(), "Copy to remote buffer '" + handle + "'");
        }
    }

    void executeStep(std::uint32_t index, std::ostream& print) {
        const auto& step = graph->steps[index];
        switch (step.action) {
        case StepAction::RunComputeSet:
            runComputeSet(step.actionIndex);
            break;
        case StepAction::Copy: {
            const auto& c = copyExecutions[step.actionIndex];
            c.direct.execute();
            c.gather.execute();
            c.scatter.execute();
            break;
        }
        case StepAction::StreamToDevice:
            streamCopy(graph->streamCopies[step.actionIndex], true);
            break;
        case StepAction::StreamToHost:
            streamCopy(graph->streamCopies[step.actionIndex], false);
            break;
        case StepAction::RemoteToDevice:
            remoteCopy(graph->remoteCopies[step.actionIndex], true);
            break;
        case StepAction::RemoteToHost:
            remoteCopy(graph->remoteCopies[step.actionIndex], false);
            break;
        case StepAction::Print: {
            const auto& p = graph->prints[step.actionIndex];
            std::vector<std::byte> buf(p.tensor.numElements() * elementSize(p.tensor.type));
            gatherInto(p.tensor, buf.data());
            printTensor(print, p.title, p.tensor.type, p.tensor.shape, buf);
            break;
        }
        case StepAction::None:
            break;
        }
        if (anyVertexCycles) { // data-dependent vertices: this execution's own cycles
            auto own = std::make_shared<capture::PerTile>(*stepCycles[index]);
            for (std::size_t t = 0; t < own->size() && t < vertexCycles.size(); ++t) {
                (*own)[t] += vertexCycles[t];
                vertexCycles[t] = 0;
            }
            anyVertexCycles = false;
            if (run) {
                capture::StepExecutionRecord rec;
                rec.step = index;
                rec.startCycle = cycle;
                rec.cyclesPerTile = own;
                run->steps.push_back(std::move(rec));
            }
            cycle += own->empty() ? 0 : *std::max_element(own->begin(), own->end());
            return;
        }
        if (run) {
            capture::StepExecutionRecord rec;
            rec.step = index;
            rec.startCycle = cycle;
            rec.cyclesPerTile = stepCycles[index];
            run->steps.push_back(std::move(rec));
        }
        cycle += stepMaxCycles[index];
    }

    /// poplar::cycleCount / cycleStamp: the 64-bit value as (lower, upper) 32-bit words.
    void writeCounter(const TensorView& counter, std::uint64_t value) {
        const std::uint32_t words[2] = {static_cast<std::uint32_t>(value),
                                        static_cast<std::uint32_t>(value >> 32)};
        scatterFrom(counter, reinterpret_cast<const std::byte*>(words));
    }

    /// The lowered steps of each child of a sequence that is a leaf (null for control
    /// children), found once per sequence node instead of once per child per execution: a
    /// sequence of thousands of small copies repeated many times looks nothing up per copy.
    const std::vector<const std::vector<std::uint32_t>*>& leafSteps(const ProgramNode& sequence) {
        auto it = sequenceLeaves.find(&sequence);
        if (it != sequenceLeaves.end())
            return it->second;
        std::vector<const std::vector<std::uint32_t>*> leaves;
        leaves.reserve(sequence.children.size());
        for (const auto& c : sequence.children) {
            const auto found = graph->stepsOfNode.find(c.get());
            leaves.push_back(found == graph->stepsOfNode.end() ? nullptr : &found->second);
        }
        return sequenceLeaves.emplace(&sequence, std::move(leaves)).first->second;
    }

    void execute(const ProgramNode& n, std::ostream& print) {
        const BlockRecorder::Scope* scope = blocks ? blocks->scopeOf(n) : nullptr;
        if (scope) {
            const auto from = blocks->enter(cycle);
            executeNode(n, print);
            blocks->exit(*scope, from, cycle);
        } else {
            executeNode(n, print);
        }
    }

    /// After an iteration of a loop: the implicit flush of the block buffers, if any.
    void endIteration(const ProgramNode& loop) {
        if (blocks && blocks->flushesAfter(loop))
            blocks->flush(cycle);
    }

    void executeNode(const ProgramNode& n, std::ostream& print) {
        switch (n.kind) {
        case ProgramKind::Sequence: {
            const std::uint64_t start = cycle;
            const auto& leaves = leafSteps(n);
            for (std::size_t i = 0; i < n.children.size(); ++i) {
                // With lightweight profiling on, leaves go through execute(), which records
                // selected blocks and instrumented stream copies.
                if (!leaves[i] || blocks) {
                    execute(*n.children[i], print);
                    continue;
                }
                for (auto s : *leaves[i])
                    executeStep(s, print);
            }
            if (n.cycleCounter)
                writeCounter(*n.cycleCounter, n.cycleStamp ? cycle : cycle - start);
            break;
        }
        case ProgramKind::Repeat:
            for (std::uint64_t i = 0; i < n.repeatCount; ++i) {
                execute(*n.children[0], print);
                endIteration(n);
            }
            break;
        case ProgramKind::Block:
            execute(*n.children[0], print);
            break;
        case ProgramKind::RepeatWhileTrue:
        case ProgramKind::RepeatWhileFalse: {
            const bool loopWhile = n.kind == ProgramKind::RepeatWhileTrue;
            execute(*n.children[0], print);
            while ((scalarValue(*n.predicate) != 0) == loopWhile) {
                execute(*n.children[1], print);
                execute(*n.children[0], print);
                endIteration(n);
            }
            break;
        }
        case ProgramKind::If:
            execute(*n.children[scalarValue(*n.predicate) != 0 ? 0 : 1], print);
            break;
        case ProgramKind::Switch: {
            const auto value = scalarValue(*n.predicate);
            std::size_t chosen = n.children.size() - 1;
            for (std::size_t i = 0; i < n.caseValues.size(); ++i)
                if (n.caseValues[i] == value)
                    chosen = i;
            execute(*n.children[chosen], print);
            break;
        }
        case ProgramKind::Call:
            execute(*model.functions[n.function].body, print);
            break;
        default:
            for (auto s : graph->stepsOfNode.at(&n)) {
                if (blocks && blocks->instrumentsStep(s)) { // debug.instrumentExternalExchange
                    const auto from = blocks->enter(cycle);
                    executeStep(s, print);
                    cycle += kBlockEdgeCycles;
                    blocks->recordStep(s, from, cycle);
                } else {
                    executeStep(s, print);
                }
            }
            break;
        }
    }
};

BspEngine::BspEngine(std::shared_ptr<const CompiledGraph> graph, unsigned hostThreads)
    : impl_(std::make_unique<Impl>(std::move(graph), hostThreads)), print_(&std::cout) {}

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
    impl_->remoteBuffers.read(id, {repeat}, static_cast<std::byte*>(data),
                              "copyFromRemoteBuffer");
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
