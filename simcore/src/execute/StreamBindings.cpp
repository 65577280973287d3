#include "StreamBindings.hpp"

#include "HostTransfers.hpp"
#include "poplar/exceptions.hpp"

#include <algorithm>
#include <cstddef>

namespace tilescope::sim {

namespace {

std::size_t streamBytes(const StreamInfo& s) {
    return s.numElements * elementSize(s.type);
}

bool isBroadcast(const StreamInfo& s) {
    return s.hostToDevice && s.broadcast;
}

/// The callback of a BROADCAST stream on replica 0: the user's, whose data it keeps.
class BroadcastSource : public poplar::StreamCallback {
public:
    BroadcastSource(std::shared_ptr<poplar::StreamCallback> user,
                    std::shared_ptr<BroadcastHistory> history, std::size_t bytes)
        : user_(std::move(user)), history_(std::move(history)), bytes_(bytes) {}
    // Replica 0's data must be recorded in transfer order: no prefetching ahead.
    Result prefetch(void*) override { return Result::NotAvailable; }
    void fetch(void* p) override {
        user_->fetch(p);
        history_->record(static_cast<const std::byte*>(p), bytes_);
    }
    void complete() override { user_->complete(); }

private:
    std::shared_ptr<poplar::StreamCallback> user_;
    std::shared_ptr<BroadcastHistory> history_;
    std::size_t bytes_;
};

/// The callback of a BROADCAST stream on another replica: replica 0's data, in order.
class BroadcastCopy : public poplar::StreamCallback {
public:
    BroadcastCopy(std::shared_ptr<BroadcastHistory> history, unsigned replica, std::size_t bytes)
        : history_(std::move(history)), replica_(replica), bytes_(bytes) {}
    Result prefetch(void*) override { return Result::NotAvailable; }
    void fetch(void* p) override { history_->take(replica_, static_cast<std::byte*>(p), bytes_); }
    void complete() override {}

private:
    std::shared_ptr<BroadcastHistory> history_;
    unsigned replica_;
    std::size_t bytes_;
};

} // namespace

void StreamBindings::bind(const GraphModel& model, const Binding& b, ReplicaGroup& replicas) {
    const unsigned n = replicas.size();
    const auto& stream = model.streams[findStream(model, b.handle)];
    const bool broadcast = isBroadcast(stream) && n > 1;
    if (b.callback) {
        if (b.replica >= 0) {
            replicas.replica(static_cast<unsigned>(b.replica))
                .connectStreamCallback(b.handle, b.callback);
        } else if (broadcast) {
            // Replica 0 asks the host; the others receive what it received.
            auto history = std::make_shared<BroadcastHistory>(n);
            replicas.replica(0).connectStreamCallback(
                b.handle,
                std::make_shared<BroadcastSource>(b.callback, history, streamBytes(stream)));
            for (unsigned r = 1; r < n; ++r)
                replicas.replica(r).connectStreamCallback(
                    b.handle, std::make_shared<BroadcastCopy>(history, r, streamBytes(stream)));
        } else {
            for (unsigned r = 0; r < n; ++r)
                replicas.replica(r).connectStreamCallback(b.handle, b.callback);
        }
        return;
    }
    auto* begin = static_cast<std::byte*>(b.begin);
    auto* end = static_cast<std::byte*>(b.end);
    if (b.replica >= 0 || broadcast || n == 1) {
        for (unsigned r = 0; r < n; ++r)
            if (b.replica < 0 || static_cast<unsigned>(b.replica) == r)
                replicas.replica(r).connectStream(b.handle, begin, end);
        return;
    }
    const std::size_t part = static_cast<std::size_t>(end - begin) / n;
    for (unsigned r = 0; r < n; ++r)
        replicas.replica(r).connectStream(b.handle, begin + r * part, begin + (r + 1) * part);
}

void StreamBindings::connect(const GraphModel& model, Binding b, ReplicaGroup* loaded) {
    const auto& stream = model.streams[findStream(model, b.handle)];
    if (!b.callback) {
        checkStreamBuffer(model, b.handle, b.begin, b.end);
        const unsigned n = std::max(1u, model.replicationFactor);
        const auto bytes = static_cast<std::size_t>(static_cast<std::byte*>(b.end) -
                                                    static_cast<std::byte*>(b.begin));
        const std::size_t slot = streamBytes(stream);
        if (n > 1 && b.replica < 0 && !isBroadcast(stream) && slot && bytes % (slot * n) != 0)
            throw poplar::stream_connection_error(
                "connectStream: the buffer for stream '" + b.handle + "' has " +
                std::to_string(bytes) + " bytes; the graph has " + std::to_string(n) +
                " replicas, so it must hold a whole number of " + std::to_string(slot) +
                "-byte transfers for each of them (replica r uses part r of the buffer)");
    }
    if (loaded)
        bind(model, b, *loaded);
    // A newer connection of the same stream (and replica) replaces the older one; one for every
    // replica replaces them all.
    bindings_.erase(std::remove_if(bindings_.begin(), bindings_.end(),
                                   [&](const Binding& old) {
                                       return old.handle == b.handle &&
                                              (b.replica < 0 || old.replica == b.replica);
                                   }),
                    bindings_.end());
    bindings_.push_back(std::move(b));
}

void StreamBindings::bindAll(const GraphModel& model, ReplicaGroup& replicas) const {
    for (const auto& b : bindings_)
        bind(model, b, replicas);
}

} // namespace tilescope::sim
