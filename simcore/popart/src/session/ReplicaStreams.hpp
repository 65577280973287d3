#pragma once
// The host side of a replicated session's input and anchor streams. PopART lays a step's data
// out as [batchesPerStep, accumulationFactor, replicas, sample...]: a batch's R replicas are R
// consecutive slices, each taken from (or given to) the IStepIO with one in()/out() call, in
// replica order. The engine calls each replica's callback on its own schedule, so a stream
// keeps the batches it has fetched (or that replicas have filled) until every replica has had
// its part, and gives them to the IStepIO in order.

#include <cstdint>
#include <deque>
#include <functional>
#include <popart/names.hpp>
#include <vector>

namespace popart {

/// One stream's batches in flight between the IStepIO and the replicas' callbacks.
class ReplicaStaging {
public:
    /// Moves one replica's part (bytes of the device type) between the IStepIO and `data`.
    using Transfer = std::function<void(void* data)>;

    ReplicaStaging(unsigned replicas, std::size_t bytesPerReplica)
        : replicas_(replicas), bytes_(bytesPerReplica), consumed_(replicas, 0) {}

    /// Forgets everything in flight (the start of a run).
    void reset();
    /// Input: replica `r`'s next part, fetching a batch's parts in replica order with `fetch`
    /// (one call per replica) when this replica is the first to need it.
    void read(unsigned r, void* dst, const Transfer& fetch);
    /// Anchor: replica `r`'s next part; a batch whose parts are all in is handed to `deliver`
    /// in replica order (one call per replica), batches in order.
    void write(unsigned r, const void* src, const Transfer& deliver);

private:
    struct Batch {
        std::vector<char> bytes;
        unsigned filled = 0;
    };
    Batch& batch(std::uint64_t index);
    void dropDone(std::uint64_t handled);

    unsigned replicas_;
    std::size_t bytes_;
    std::vector<std::uint64_t> consumed_; // per replica: parts read or written
    std::deque<Batch> batches_;           // from index first_
    std::uint64_t first_ = 0;             // the index of batches_.front()
    std::uint64_t fetched_ = 0;           // inputs: batches taken from the IStepIO
    std::uint64_t delivered_ = 0;         // anchors: batches given to the IStepIO
};

} // namespace popart
