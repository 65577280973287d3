#pragma once
// The engine: compiles a graph and its programs for the (simulated) device and runs them.

#include "poplar/ArrayRef.hpp"
#include "poplar/Device.hpp"
#include "poplar/Executable.hpp"
#include "poplar/Graph.hpp"
#include "poplar/OptionFlags.hpp"
#include "poplar/Program.hpp"
#include "poplar/StreamCallback.hpp"
#include "poplar/StringRef.hpp"

// SDK programs rely on poplar's main headers bringing in the standard headers they use.
#include <cassert>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace tilescope {
namespace capture {
struct CompileRecords;
struct ExecutionRecords;
} // namespace capture
namespace sim {
struct CompiledGraph;
} // namespace sim
} // namespace tilescope

namespace pva {
class Report;
} // namespace pva

namespace poplar {

using ProgressFunc = std::function<void(int, int)>;

/// Compiles a graph with one or more programs at construction (checking mappings and
/// connections, laying out tile memory, computing liveness and cycle estimates) and runs them
/// on the host after load(). Options are engine options (Poplar names, plus
/// "tilescope.hostThreads"); POPLAR_ENGINE_OPTIONS overrides them. A tile out of memory throws
/// graph_memory_allocation_error unless "debug.allowOutOfMemory" is "true".
class Engine {
public:
    Engine(const Graph& graph, ArrayRef<program::Program> programs, const OptionFlags& options = {},
           ProgressFunc progressCallBack = {});
    Engine(const Graph& graph, const program::Program& program, const OptionFlags& options = {},
           ProgressFunc progressCallBack = {});
    /// Runs an executable from compileGraph or Executable::deserialize (consumed). Options that
    /// affect compilation (debug.instrument, debug.allowOutOfMemory, opt.*, target.*) come from
    /// the executable and are ignored here, as in the Poplar SDK; run-time options (autoReport.*,
    /// tilescope.hostThreads, ...) apply. Throws poplar_error for an empty executable.
    Engine(Executable&& exe, const OptionFlags& options = {});
    Engine(Engine&&) noexcept;
    Engine& operator=(Engine&&) noexcept;
    ~Engine();

    /// Loads the compiled graph onto the device (allocates tensor storage, binds vertices).
    /// Throws graph_memory_allocation_error if the graph was compiled out of memory.
    void load(const Device& device);
    /// Runs program `prog` (the index in the list given at construction).
    void run(unsigned prog = 0, const std::string& debugName = "");
    /// Runs after disableExecutionProfiling() execute (and count cycles) but record no execution
    /// profile; enableExecutionProfiling() (the default state) records them again.
    void enableExecutionProfiling();
    void disableExecutionProfiling();

    /// A point in time for reportTiming: the simulated device's cycle counter (cycles run since
    /// load, as the IPU's counter keeps counting across runs) and the host's steady clock.
    struct TimerTimePoint {
        std::uint64_t deviceCycles = 0;
        std::chrono::steady_clock::time_point host;
    };
    /// The time now (after the runs so far).
    TimerTimePoint getTimeStamp() const;
    /// The time between two time stamps: simulated device cycles and time at the target's tile
    /// clock, and the host's wall-clock time, as one line of text.
    std::string reportTiming(const TimerTimePoint& start, const TimerTimePoint& end) const;

    /// Writes or reads a host handle's tensor. In a replicated graph a buffer of one tensor's
    /// size is written to every replica (read from replica 0); a buffer of getReplicationFactor()
    /// tensors, one after the other, holds each replica's own.
    void writeTensor(StringRef handle, const void* buf, const void* bufEnd);
    void readTensor(StringRef handle, void* buf, void* bufEnd);
    /// Deprecated in Poplar: the size is the handle's tensor size.
    void writeTensor(StringRef handle, const void* buf);
    void readTensor(StringRef handle, void* buf);

    /// Connects a stream to a host buffer; successive copies use successive slots of it and wrap
    /// around at the end. Connections made before load() take effect at load(). In a
    /// replicated graph the buffer is cut into one equal part per replica, replica r using
    /// part r, except for a BROADCAST host-to-device stream, whose buffer every replica reads.
    void connectStream(StringRef handle, void* begin, void* end);
    /// Connects a stream to a buffer holding exactly one transfer (one per replica of a
    /// replicated graph, unless the stream is BROADCAST).
    void connectStream(StringRef handle, void* p);
    /// Connects a stream to a callback: a StreamCallback object or a function taking a void*
    /// (see StreamCallback for the order of prefetch, fetch and complete). Connections made
    /// before load() take effect at load(). Without `index` every replica calls it (for a
    /// BROADCAST stream only replica 0, whose data every replica receives); with `index`, only
    /// replica `index` does. Throws index_error for a replica out of range.
    void connectStreamToCallback(StringRef handle, StreamCallbackHandle f);
    void connectStreamToCallback(StringRef handle, unsigned index, StreamCallbackHandle f);

    /// Writes one repeat (`repeatIndex`) of replica `replica`'s remote buffer from `data`
    /// (numElements of its element type). Throws index_error for a repeat or replica out of
    /// range.
    void copyToRemoteBuffer(const void* data, const std::string& handle, std::uint64_t repeatIndex,
                            unsigned replica = 0);
    /// Reads one repeat of a remote buffer into `data`.
    void copyFromRemoteBuffer(const std::string& handle, void* data, std::uint64_t repeatIndex,
                              unsigned replica = 0);

    /// Prints target, graph, memory and execution summaries. Options: "showExecutionSteps" and
    /// "showVarStorage" ("true"/"false").
    void printProfileSummary(std::ostream& outputStream, const OptionFlags& opt = {}) const;
    /// Where PrintTensor programs write (default std::cout).
    void setPrintStream(std::ostream& stream);
    void setPrintTensorStream(std::ostream& stream) { setPrintStream(stream); }

    /// The engine's profile so far: the compilation and every run recorded in memory
    /// (lightweight-profiling blocks included, read with execution().blocks(tile)), without
    /// autoReport. Include <pva/pva.hpp> to use it. Throws poplar_error if it cannot be built.
    pva::Report getReport(bool reportExecution = true) const;

    // --- TileScope extensions: the in-memory profile ---
    const tilescope::capture::CompileRecords& compileRecords() const;
    const tilescope::capture::ExecutionRecords& executionRecords() const;

private:
    void startCapture();
    void configure(const std::vector<std::pair<std::string, std::string>>& options);
    void adopt(std::shared_ptr<const tilescope::sim::CompiledGraph> compiled);
    /// Throws index_error unless `replica` is one of the graph's replicas.
    void checkReplica(unsigned replica, const char* what, const std::string& handle) const;
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace poplar
