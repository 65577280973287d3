#pragma once
// The stream connections an Engine was given (connectStream, connectStreamToCallback), kept so
// that each load() binds them to every replica of the graph.

#include "ReplicaGroup.hpp"
#include "poplar/StreamCallback.hpp"
#include "tilescope/sim/GraphModel.hpp"

#include <memory>
#include <string>
#include <vector>

namespace tilescope::sim {

/// Every stream connection of an engine, in order. A connection for all replicas binds, in a
/// replicated graph: a callback to every replica (for a BROADCAST host-to-device stream to
/// replica 0 only, the others receiving its data); a buffer cut into one equal part per replica
/// (a BROADCAST stream's buffer whole to every replica). A connection for one replica binds to
/// it alone.
class StreamBindings {
public:
    struct Binding {
        std::string handle;
        void* begin = nullptr;
        void* end = nullptr;
        std::shared_ptr<poplar::StreamCallback> callback;
        int replica = -1; ///< -1: every replica
    };

    /// Checks `b` (an unknown handle, a buffer that is no whole number of transfers for each
    /// replica: poplar::stream_connection_error), binds it to `loaded` when given, and keeps it
    /// in place of older connections of the same stream (and replica).
    void connect(const GraphModel& model, Binding b, ReplicaGroup* loaded);
    /// Binds every connection kept to freshly loaded replicas.
    void bindAll(const GraphModel& model, ReplicaGroup& replicas) const;

private:
    static void bind(const GraphModel& model, const Binding& b, ReplicaGroup& replicas);
    std::vector<Binding> bindings_;
};

} // namespace tilescope::sim
