#pragma once
// A single-producer, single-consumer queue of fixed-size trace records: the traced thread appends,
// the flusher drains. Records go into chunks of a linked list; appending is one store of the
// record and one release store of the chunk's count, with no lock and no allocation except once
// per chunk. The consumer frees a chunk only after the producer has moved on to the next one.

#include <atomic>
#include <cstdint>
#include <string>

namespace tilescope::capture {

struct RawEvent {
    enum Type : std::uint8_t { Begin, End, Instant };
    std::uint64_t ticks;
    std::uint32_t label;
    std::uint16_t channel;
    Type type;
};

class ThreadEventBuffer {
public:
    ThreadEventBuffer(std::int64_t tid, std::string name);
    ~ThreadEventBuffer();
    ThreadEventBuffer(const ThreadEventBuffer&) = delete;
    ThreadEventBuffer& operator=(const ThreadEventBuffer&) = delete;

    std::int64_t tid() const { return tid_; }
    const std::string& name() const { return name_; }
    std::uint64_t serial() const { return serial_; }

    /// Producer side (the owning thread only).
    void push(const RawEvent& e) {
        Chunk* c = tail_;
        std::uint32_t n = c->count.load(std::memory_order_relaxed);
        if (n == Chunk::kCapacity) {
            c = grow();
            n = 0;
        }
        c->events[n] = e;
        c->count.store(n + 1, std::memory_order_release);
    }

    /// Consumer side (one thread at a time): calls `f` for every record not yet drained.
    template <typename F> void drain(F&& f) {
        for (;;) {
            Chunk* c = head_;
            const std::uint32_t n = c->count.load(std::memory_order_acquire);
            for (; read_ < n; ++read_)
                f(c->events[read_]);
            if (n < Chunk::kCapacity)
                return;
            Chunk* next = c->next.load(std::memory_order_acquire);
            if (!next)
                return;
            head_ = next;
            read_ = 0;
            delete c;
        }
    }

    /// True when everything pushed so far has been drained (consumer side).
    bool empty() const {
        const std::uint32_t n = head_->count.load(std::memory_order_acquire);
        return read_ == n && head_->next.load(std::memory_order_acquire) == nullptr;
    }

private:
    struct Chunk {
        static constexpr std::uint32_t kCapacity = 4096;
        std::atomic<std::uint32_t> count{0};
        std::atomic<Chunk*> next{nullptr};
        RawEvent events[kCapacity];
    };

    Chunk* grow();

    std::int64_t tid_;
    std::string name_;
    std::uint64_t serial_;
    Chunk* head_;            // consumer
    std::uint32_t read_ = 0; // consumer
    Chunk* tail_;            // producer
};

} // namespace tilescope::capture
