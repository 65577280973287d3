#include "session/ReplicaStreams.hpp"

#include <algorithm>
#include <cstring>

namespace popart {

void ReplicaStaging::reset() {
    std::fill(consumed_.begin(), consumed_.end(), 0);
    batches_.clear();
    first_ = fetched_ = delivered_ = 0;
}

ReplicaStaging::Batch& ReplicaStaging::batch(std::uint64_t index) {
    while (first_ + batches_.size() <= index) {
        batches_.emplace_back();
        batches_.back().bytes.resize(bytes_ * replicas_);
    }
    return batches_[std::size_t(index - first_)];
}

void ReplicaStaging::dropDone(std::uint64_t handled) {
    // A batch every replica has passed, and that was fetched or delivered, is finished.
    const std::uint64_t slowest = *std::min_element(consumed_.begin(), consumed_.end());
    const std::uint64_t done = std::min(slowest, handled);
    while (!batches_.empty() && first_ < done) {
        batches_.pop_front();
        ++first_;
    }
}

void ReplicaStaging::read(unsigned r, void* dst, const Transfer& fetch) {
    const std::uint64_t index = consumed_[r]++;
    while (fetched_ <= index) {
        Batch& b = batch(fetched_);
        for (unsigned k = 0; k < replicas_; ++k)
            fetch(b.bytes.data() + k * bytes_);
        ++fetched_;
    }
    std::memcpy(dst, batch(index).bytes.data() + r * bytes_, bytes_);
    dropDone(fetched_);
}

void ReplicaStaging::write(unsigned r, const void* src, const Transfer& deliver) {
    const std::uint64_t index = consumed_[r]++;
    Batch& b = batch(index);
    std::memcpy(b.bytes.data() + r * bytes_, src, bytes_);
    ++b.filled;
    while (delivered_ < first_ + batches_.size() && batch(delivered_).filled == replicas_) {
        Batch& ready = batch(delivered_);
        for (unsigned k = 0; k < replicas_; ++k)
            deliver(ready.bytes.data() + k * bytes_);
        ++delivered_;
    }
    dropDone(delivered_);
}

} // namespace popart
