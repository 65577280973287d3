#pragma once
// Executes a compiled graph on the host: vertices run their compute() on tile data, copies and
// exchanges move data, streams move host buffers and control flow follows tensor values. Cycles are
// taken from the compiled steps, so results and cycle counts do not depend on host threads.

#include "poplar/StreamCallback.hpp"
#include "tilescope/capture/ProfileRecords.hpp"
#include "tilescope/sim/BlockRecorder.hpp"
#include "tilescope/sim/CompiledGraph.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace tilescope::sim {

/// The device state of one loaded graph (tensor storage, bound vertex objects, stream positions)
/// and the interpreter of its programs. Tile work of a compute set is spread over `hostThreads`
/// host threads (0: all hardware threads); each tile's vertices run in vertex order on one thread.
class BspEngine {
public:
    /// Shared with the Engine, which keeps its connections to bind them again at a new load().
    using StreamCallback = std::shared_ptr<poplar::StreamCallback>;

    /// Runs a CrossReplica step's collective (its index in CompiledGraph::collectives) across
    /// the replicas; returns when every replica's destination holds the result.
    using CrossReplicaHandler = std::function<void(std::uint32_t collective)>;

    /// The state of replica `replica` of the graph (its replication index constants hold it).
    BspEngine(std::shared_ptr<const CompiledGraph> graph, unsigned hostThreads,
              unsigned replica = 0);
    ~BspEngine();
    BspEngine(const BspEngine&) = delete;
    BspEngine& operator=(const BspEngine&) = delete;

    /// Runs entry point `program`; appends a RunRecord. Throws poplar::index_error for a bad
    /// index, poplar::stream_connection_error for unconnected streams and
    /// poplar::application_runtime_error when a vertex's compute() returns false.
    void run(unsigned program);

    void writeHandle(const std::string& handle, const void* begin, const void* end);
    void readHandle(const std::string& handle, void* begin, void* end) const;
    void connectStream(const std::string& handle, void* begin, void* end);
    /// Host-to-device copies use a prefetched buffer if the callback's prefetch() succeeded
    /// after the previous transfer, else call fetch(); complete() follows, then prefetch() for
    /// the next transfer. Device-to-host copies call fetch() with the data, then complete().
    void connectStreamCallback(const std::string& handle, StreamCallback callback);
    /// false: stream callbacks are never asked to prefetch() (exchange.enablePrefetch=false).
    void setStreamPrefetch(bool prefetch);
    /// Reads or writes row `repeat` of a remote buffer (its numElements elements, raw bytes).
    /// Throws poplar::index_error for an unknown handle or a row out of range.
    void writeRemoteBuffer(const std::string& handle, const void* data, std::uint64_t repeat);
    void readRemoteBuffer(const std::string& handle, void* data, std::uint64_t repeat) const;
    void setPrintStream(std::ostream& out) { print_ = &out; }
    /// Who performs collectives; without one a CrossReplica step throws poplar_error.
    void setCrossReplicaHandler(CrossReplicaHandler handler) { crossReplica_ = std::move(handler); }
    /// false: runs execute (and count cycles) but append no RunRecord.
    void setRecording(bool recording) { recording_ = recording; }
    /// Runs of each program whose steps are recorded; later runs append a RunRecord with their
    /// totals only (stepsRecorded false), so hundreds of runs of a program with millions of
    /// steps do not keep every step in memory. Default: all.
    void setStepRecordRuns(std::uint32_t runs) { stepRecordRuns_ = runs; }

    /// Lightweight profiling: records the blocks the recorder selects into each RunRecord.
    void setBlockRecorder(std::unique_ptr<BlockRecorder> recorder);

    const capture::ExecutionRecords& records() const { return records_; }
    /// The cycles the last run took (recorded or not); 0 before the first run.
    std::uint64_t lastRunCycles() const;

    /// Reads or writes a tensor's elements as raw device bytes (row-major).
    std::vector<std::byte> gather(const TensorView& t) const;
    void scatter(const TensorView& t, const std::byte* bytes);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    capture::ExecutionRecords records_;
    std::ostream* print_;
    bool recording_ = true;
    std::uint32_t stepRecordRuns_ = UINT32_MAX;
    std::vector<std::uint32_t> runsOfProgram_; ///< recorded runs so far, per entry point
    CrossReplicaHandler crossReplica_;
};

} // namespace tilescope::sim
