#include "tilescope/capture/EngineOptionTable.hpp"

#include <algorithm>

namespace tilescope::capture {

namespace {
using K = OptionKind;
constexpr bool applies = true;
constexpr bool doesNotApply = false;
} // namespace

const std::vector<EngineOptionSpec>& engineOptionTable() {
    // clang-format off
    static const std::vector<EngineOptionSpec> table = [] {
        std::vector<EngineOptionSpec> t = {
        // name, kind, choices, applies?, default stored in reports, why
        {"autoReport.all", K::Bool, nullptr, applies, "false", "switches every autoReport output on"},
        {"autoReport.directory", K::String, nullptr, applies, ".", "where profile.pop is written"},
        {"autoReport.executionProfileProgramRunCount", K::Unsigned, nullptr, applies, "2", "runs stored in full in the report"},
        {"autoReport.outputArchive", K::Bool, nullptr, doesNotApply, nullptr, "there is no ELF archive of tile binaries (see target.saveArchive)"},
        {"autoReport.outputDebugInfo", K::Bool, nullptr, applies, nullptr, "stores the operations and debug contexts"},
        {"autoReport.outputExecutionProfile", K::Bool, nullptr, applies, nullptr, "stores the execution profile"},
        {"autoReport.outputGraphProfile", K::Bool, nullptr, applies, nullptr, "stores the compile profile"},
        {"autoReport.outputLoweredVars", K::Bool, nullptr, applies, nullptr, "stores variables and their liveness"},
        {"autoReport.outputSerializedGraph", K::Bool, nullptr, doesNotApply, nullptr, "the serialized-graph file format is the SDK's own"},
        {"autoReport.streamAtEachRun", K::Bool, nullptr, applies, "false", "writes the execution profile after every run"},
        {"debug.allowOutOfMemory", K::Bool, nullptr, applies, "false", "keeps compiling a graph that does not fit"},
        {"debug.branchRecordTile", K::Unsigned, nullptr, doesNotApply, nullptr, "no hardware branch records: control flow is interpreted on the host"},
        {"debug.computeInstrumentationLevel", K::Choice, "vertex|tile|ipu", applies, "tile", "granularity of recorded compute cycles"},
        {"debug.cpuMultiThreadExecution", K::Bool, nullptr, doesNotApply, nullptr, "host threads are set by tilescope.hostThreads"},
        {"debug.instrument", K::Bool, nullptr, applies, nullptr, "adds instrumentation code and records cycles"},
        {"debug.instrumentCompute", K::Bool, nullptr, applies, nullptr, "records compute cycles"},
        {"debug.instrumentControlFlow", K::Bool, nullptr, doesNotApply, nullptr, "control-flow cycles are always recorded"},
        {"debug.instrumentExternalExchange", K::Bool, nullptr, applies, nullptr, "records every stream copy as StreamCopyBegin/Mid/End blocks on the tiles that perform it"},
        {"debug.loweredVarDumpFile", K::String, nullptr, applies, nullptr, "writes each lowered variable's tile, address and size as JSON"},
        {"debug.outputAllSymbols", K::Bool, nullptr, doesNotApply, nullptr, "no ELF symbols: codelets run as host code"},
        {"debug.retainDebugInformation", K::Bool, nullptr, applies, nullptr, "keeps debug contexts for the report"},
        {"debug.runtimeVerify", K::Bool, nullptr, doesNotApply, nullptr, "no device code to verify at run time"},
        {"debug.verify", K::Bool, nullptr, doesNotApply, nullptr, "no device code to verify; the graph is always checked"},
        {"exchange.enablePrefetch", K::Bool, nullptr, applies, nullptr, "false: stream callbacks are never asked to prefetch(); each transfer is fetch()ed when its copy runs"},
        {"exchange.streamBufferOverlap", K::Choice, "none|hostRearrangeOnly|any", doesNotApply, nullptr, "stream and remote-buffer copies move data straight into the tensor: no stream buffers in tile memory"},
        {"opt.enableMultiAccessCopies", K::Bool, nullptr, doesNotApply, nullptr, "copies are not optimised by access pattern"},
        {"opt.enableSwSyncs", K::Bool, nullptr, doesNotApply, nullptr, "syncs are modelled, not generated"},
        {"opt.internalExchangeOptimisationTarget", K::Choice, "balanced|cycles|memory", doesNotApply, nullptr, "one exchange cost model"},
        {"opt.limitVertexStateToLower256K", K::Bool, nullptr, doesNotApply, nullptr, "vertex state placement is not constrained"},
        {"opt.maxCompilationThreads", K::Unsigned, nullptr, doesNotApply, nullptr, "compilation is single-threaded"},
        {"opt.maxCopyMergeSize", K::Unsigned, nullptr, doesNotApply, nullptr, "copies are not merged"},
        {"opt.useAutoloader", K::Bool, nullptr, doesNotApply, nullptr, "no code loading: the whole program is resident"},
        {"profiler.blocks.bufferSize", K::Unsigned, nullptr, applies, nullptr, "bytes of each tile's block buffer (default 1000; 24 bytes per record)"},
        {"profiler.blocks.filter", K::String, nullptr, applies, nullptr, "regular expression selecting the Block programs to record"},
        {"profiler.blocks.implicitFlush", K::Bool, nullptr, applies, nullptr, "flushes the block buffers to the host after each iteration of the innermost loops holding blocks (default true)"},
        {"profiler.blocks.tile", K::Unsigned, nullptr, applies, nullptr, "the tile of each IPU that records blocks (default 0)"},
        {"profiler.format", K::String, nullptr, doesNotApply, nullptr, "reports use TileScope's own format"},
        {"profiler.includeCycleEstimates", K::Bool, nullptr, doesNotApply, nullptr, "cycle estimates are always included"},
        {"profiler.includeFlopEstimates", K::Bool, nullptr, applies, nullptr, "stores each operation's estimated FLOPs"},
        {"profiler.programs.filter", K::String, nullptr, applies, nullptr, "regular expression naming programs to wrap in implicit blocks"},
        {"profiler.perExecutionStreamCopyCycles", K::Bool, nullptr, doesNotApply, nullptr, "stream copies are recorded per execution anyway"},
        {"profiler.replicaToProfile", K::Unsigned, nullptr, applies, "0", "the replica whose execution the report records (every replica runs; they share the compile profile)"},
        {"streamCallbacks.maxLookahead", K::UnsignedOrWord, "unlimited", applies, nullptr, "0 turns prefetch off; otherwise a callback is asked to prefetch() one transfer ahead after each transfer completes (larger values act as 1)"},
        {"streamCallbacks.multiThreadMode", K::Choice, "none|collaborative|dedicated", doesNotApply, nullptr, "callbacks (fetch, prefetch, complete) run one at a time, on the thread that called Engine::run (one replica) or on the thread of the replica that makes the transfer"},
        {"streamCallbacks.numWorkerThreads", K::UnsignedOrWord, "auto", doesNotApply, nullptr, "no callback worker threads: callbacks run on the thread that called Engine::run"},
        {"target.deterministicWorkers", K::Choice, "true|false|portable", doesNotApply, nullptr, "execution is always deterministic"},
        {"target.extendedMemory", K::Bool, nullptr, doesNotApply, nullptr, "the tile memory map is fixed"},
        {"target.firstRuntimeReplica", K::Unsigned, nullptr, doesNotApply, nullptr, "no replicated graphs"},
        {"target.hostSyncTimeout", K::Unsigned, nullptr, doesNotApply, nullptr, "host syncs never time out in the simulator"},
        {"target.numberRuntimeReplica", K::Unsigned, nullptr, doesNotApply, nullptr, "no replicated graphs"},
        {"target.saveArchive", K::String, nullptr, applies, nullptr, "writes an ar archive of JSON files describing the compiled graph"},
        {"target.supervisorStackSizeInBytes", K::Unsigned, nullptr, doesNotApply, nullptr, "the stack size comes from the cost model"},
        {"target.syncReplicasIndependently", K::Bool, nullptr, doesNotApply, nullptr, "no replicated graphs"},
        {"target.useBufferedCompletions", K::Bool, nullptr, doesNotApply, nullptr, "no host completion queue"},
        {"target.workerStackSizeInBytes", K::Unsigned, nullptr, doesNotApply, nullptr, "the stack size comes from the cost model"},
        {"tilescope.hostThreads", K::Unsigned, nullptr, applies, nullptr, "host threads running tile work (0: all)"},
        };
        std::sort(t.begin(), t.end(), [](const EngineOptionSpec& a, const EngineOptionSpec& b) {
            return std::string_view(a.name) < std::string_view(b.name);
        });
        return t;
    }();
    // clang-format on
    return table;
}

const EngineOptionSpec* findEngineOption(std::string_view name) {
    const auto& t = engineOptionTable();
    auto it = std::lower_bound(
        t.begin(), t.end(), name,
        [](const EngineOptionSpec& s, std::string_view n) { return std::string_view(s.name) < n; });
    return it != t.end() && it->name == name ? &*it : nullptr;
}

} // namespace tilescope::capture
