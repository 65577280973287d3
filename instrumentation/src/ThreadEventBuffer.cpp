#include "ThreadEventBuffer.hpp"

namespace tilescope::capture {
namespace {
std::atomic<std::uint64_t> gNextSerial{1};
}

ThreadEventBuffer::ThreadEventBuffer(std::int64_t tid, std::string name)
    : tid_(tid), name_(std::move(name)), serial_(gNextSerial.fetch_add(1)), head_(new Chunk),
      tail_(head_) {}

ThreadEventBuffer::~ThreadEventBuffer() {
    for (Chunk* c = head_; c;) {
        Chunk* next = c->next.load(std::memory_order_relaxed);
        delete c;
        c = next;
    }
}

ThreadEventBuffer::Chunk* ThreadEventBuffer::grow() {
    auto* fresh = new Chunk;
    tail_->next.store(fresh, std::memory_order_release);
    tail_ = fresh;
    return fresh;
}

} // namespace tilescope::capture
