#pragma once
// The replicas of a loaded replicated graph: one BspEngine (device state) per replica, run
// together so that cross-replica collectives can combine their data.

#include "tilescope/sim/BspEngine.hpp"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <vector>

namespace tilescope::sim {

/// Every replica of a compiled graph. A run runs the program on each replica in its own host
/// thread, one replica at a time: replica 0 runs until it reaches a collective (or the end),
/// then replica 1, and so on; the last replica to reach a collective performs it for all, and
/// replica 0 continues. Stream callbacks are therefore never called concurrently and results
/// do not depend on thread timing. Replicas that reach different collectives (or one ends
/// while another waits) fail the run with poplar::poplar_error.
class ReplicaGroup {
public:
    ReplicaGroup(std::shared_ptr<const CompiledGraph> graph, unsigned replicas,
                 unsigned hostThreads);
    ~ReplicaGroup();
    ReplicaGroup(const ReplicaGroup&) = delete;
    ReplicaGroup& operator=(const ReplicaGroup&) = delete;

    unsigned size() const { return static_cast<unsigned>(replicas_.size()); }
    BspEngine& replica(unsigned r) { return *replicas_.at(r); }
    const BspEngine& replica(unsigned r) const { return *replicas_.at(r); }

    /// Runs entry point `program` on every replica; rethrows the first replica's error.
    void run(unsigned program);

private:
    struct Aborted {};
    /// A replica's CrossReplica step: wait for the others, the last one combines.
    void collective(unsigned replica, std::uint32_t action);
    void perform(std::uint32_t action);
    void replicaMain(unsigned replica, unsigned program);
    /// Called with the lock held when `replica` stops (a collective or the end of its run).
    void passTurn(unsigned replica);
    void fail(std::exception_ptr error);

    std::shared_ptr<const CompiledGraph> graph_;
    std::vector<std::unique_ptr<BspEngine>> replicas_;
    std::mutex mutex_;
    std::condition_variable changed_;
    unsigned turn_ = 0;
    std::vector<std::int64_t> waitingAt_; ///< per replica: the collective it waits at, or -1
    std::vector<bool> finished_;
    bool aborted_ = false;
    std::exception_ptr error_;
};

/// What a BROADCAST stream's host-to-device transfers were, as replica 0 received them, for
/// the other replicas to receive the same in the same order.
class BroadcastHistory {
public:
    explicit BroadcastHistory(unsigned replicas) : taken_(replicas, 0) {}
    void record(const std::byte* data, std::size_t bytes);
    /// The next transfer replica `replica` has not received; throws poplar_error if replica 0
    /// has not received it yet.
    void take(unsigned replica, std::byte* out, std::size_t bytes);

private:
    std::deque<std::vector<std::byte>> transfers_;
    std::size_t dropped_ = 0; ///< transfers every replica has taken, no longer kept
    std::vector<std::size_t> taken_;
};

} // namespace tilescope::sim
