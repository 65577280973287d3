// Running programs on the engine's state (split from BspEngine.cpp): compute sets over host
// threads, exchanges and copies, stream and remote-buffer copies, and the walk of the program tree.
#include "BspEngineImpl.hpp"
#include "poplar/exceptions.hpp"
#include "tilescope/sim/ElementConversion.hpp"
#include "tilescope/sim/TensorPrinter.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

namespace tilescope::sim {

using capture::ProgramKind;

namespace {

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

template <typename Fn>
void BspEngine::Impl::forEachChunk(const std::vector<std::uint32_t>& starts, Fn fn) {
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

void BspEngine::Impl::runComputeSet(std::uint32_t cs) {
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
            " in compute set '" + model.computeSets[cs].name + "' returned false from compute()");
    }
}

StreamConnection& BspEngine::Impl::connection(std::uint32_t stream) {
    auto& c = streams[stream];
    if (!c.connected())
        throw poplar::stream_connection_error(
            "Stream '" + model.streams[stream].handle +
            "' is not connected: call Engine::connectStream before running a program that "
            "copies through it");
    return c;
}

void BspEngine::Impl::streamCopy(const StreamCopyAction& a, bool toDevice) {
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

std::vector<std::uint64_t> BspEngine::Impl::remoteRows(const RemoteCopyAction& a) const {
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

void BspEngine::Impl::remoteCopy(const RemoteCopyAction& a, bool toDevice) {
    const auto& handle = model.remoteBuffers[a.buffer].handle;
    const auto rows = remoteRows(a);
    std::vector<std::byte> buf(a.tensor.numElements() * elementSize(a.tensor.type));
    if (toDevice) {
        remoteBuffers.read(a.buffer, rows, buf.data(), "Copy from remote buffer '" + handle + "'");
        scatterFrom(a.tensor, buf.data());
    } else {
        gatherInto(a.tensor, buf.data());
        remoteBuffers.write(a.buffer, rows, buf.data(), "Copy to remote buffer '" + handle + "'");
    }
}

void BspEngine::Impl::executeStep(std::uint32_t index, std::ostream& print) {
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
    case StepAction::CrossReplica:
        if (!crossReplica || !*crossReplica)
            throw poplar::poplar_error("a cross-replica collective ran without the engine's "
                                       "replicas to combine");
        (*crossReplica)(step.actionIndex);
        break;
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

void BspEngine::Impl::writeCounter(const TensorView& counter, std::uint64_t value) {
    const std::uint32_t words[2] = {static_cast<std::uint32_t>(value),
                                    static_cast<std::uint32_t>(value >> 32)};
    scatterFrom(counter, reinterpret_cast<const std::byte*>(words));
}

const std::vector<const std::vector<std::uint32_t>*>&
BspEngine::Impl::leafSteps(const ProgramNode& sequence) {
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

void BspEngine::Impl::execute(const ProgramNode& n, std::ostream& print) {
    const BlockRecorder::Scope* scope = blocks ? blocks->scopeOf(n) : nullptr;
    if (scope) {
        const auto from = blocks->enter(cycle);
        executeNode(n, print);
        blocks->exit(*scope, from, cycle);
    } else {
        executeNode(n, print);
    }
}

void BspEngine::Impl::endIteration(const ProgramNode& loop) {
    if (blocks && blocks->flushesAfter(loop))
        blocks->flush(cycle);
}

void BspEngine::Impl::executeNode(const ProgramNode& n, std::ostream& print) {
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

} // namespace tilescope::sim
