#pragma once
// One traced thread's events on their way to the writer thread: a single-producer,
// single-consumer chain of fixed-size chunks. The producer (the traced thread) appends through
// its inline cursor (pvti/TraceBuffer.hpp) and comes here only when a chunk is full; the consumer
// (the writer thread) drains records and hands each drained chunk back to the producer through a
// bounded free list, so after warm-up a thread neither allocates nor touches fresh pages.
//
// Chunks holding undrained events count against the session's ChunkBudget. When a new chunk
// would exceed it, the thread drops events and counts them instead of waiting or growing:
// dropping starts at an event and stops at the next begin or instant that finds room once every
// dropped begin has been ended, so the recorded events stay properly nested. Ends of begins that
// were recorded are always recorded (over the budget if need be: at most the thread's open
// depth of records).

#include "pvti/TraceBuffer.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace tilescope::capture {

using pvti::detail::EventRecord;
using pvti::detail::ThreadCursor;

/// Bytes of chunks holding events not yet drained, over all threads of a session, and the bound
/// past which threads drop new events (PVTI_OPTIONS bufferLimitMB).
struct ChunkBudget {
    explicit ChunkBudget(std::int64_t limitBytes);
    std::atomic<std::int64_t> bufferedBytes{0};
    const std::int64_t limitBytes;
    /// Drained chunks a thread keeps for reuse (a quarter of the bound, at least 4), and those of
    /// all threads together (at most half the bound): memory stays within 1.5 times the bound
    /// (plus a chunk per thread), however many threads come and go.
    const std::uint32_t freeChunksPerThread;
    std::atomic<std::int64_t> freeBytes{0};
};

class ThreadEventBuffer {
public:
    struct Chunk {
        static constexpr std::uint32_t kCapacity = 4096; // 64 KB of records
        std::atomic<std::uint32_t> published{0};
        std::atomic<Chunk*> next{nullptr};
        Chunk* nextFree = nullptr;
        EventRecord records[kCapacity];
    };
    static constexpr std::int64_t kChunkBytes = sizeof(Chunk);

    ThreadEventBuffer(std::int64_t tid, std::string name, std::shared_ptr<ChunkBudget> budget);
    ~ThreadEventBuffer();
    ThreadEventBuffer(const ThreadEventBuffer&) = delete;
    ThreadEventBuffer& operator=(const ThreadEventBuffer&) = delete;

    std::int64_t tid() const { return tid_; }
    const std::string& name() const { return name_; }
    std::uint64_t serial() const { return serial_; }

    // --- producer (the owning thread only) ---
    /// Points `cursor` at the free part of the current chunk (session `generation`).
    void openCursor(ThreadCursor& cursor, std::uint32_t generation);
    /// The out-of-line part of an append: the cursor's chunk is full, or events are being dropped.
    /// False when the record was not kept.
    bool appendSlow(ThreadCursor& cursor, const EventRecord& record);

    // --- consumer (one thread at a time) ---
    /// Calls `f` for every record not yet drained; drained chunks go back to the producer.
    template <typename F> std::size_t drain(F&& f) {
        std::size_t count = 0;
        for (;;) {
            Chunk* c = head_;
            const std::uint32_t n = c->published.load(std::memory_order_acquire);
            for (; read_ < n; ++read_, ++count)
                f(c->records[read_]);
            if (n < Chunk::kCapacity)
                return count;
            Chunk* next = c->next.load(std::memory_order_acquire);
            if (!next)
                return count;
            head_ = next;
            read_ = 0;
            recycle(c);
        }
    }
    /// True when everything appended so far has been drained.
    bool empty() const {
        return read_ == head_->published.load(std::memory_order_acquire) &&
               head_->next.load(std::memory_order_acquire) == nullptr;
    }
    /// Events dropped so far because the budget was exhausted (any thread may read it).
    std::uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

private:
    /// Makes room for one record in tail_ (a recycled or new chunk when it is full); false when
    /// that needs a chunk and the budget is exhausted, unless `overBudget`.
    bool makeRoom(bool overBudget);
    void append(const EventRecord& record);
    void drop();
    void recycle(Chunk* chunk);

    std::int64_t tid_;
    std::string name_;
    std::uint64_t serial_;
    std::shared_ptr<ChunkBudget> budget_;
    std::atomic<std::uint64_t> dropped_{0};
    std::atomic<Chunk*> freeStack_{nullptr}; // pushed by the consumer, emptied by the producer
    std::atomic<std::uint32_t> freeCount_{0};

    Chunk* head_;            // consumer
    std::uint32_t read_ = 0; // consumer

    Chunk* tail_;                 // producer
    std::uint32_t tailUsed_ = 0;  // producer: records in tail_ (the cursor's count while open)
    Chunk* ownFree_ = nullptr;    // producer: free chunks taken from freeStack_
    bool dropping_ = false;       // producer
    std::uint64_t dropDepth_ = 0; // producer: dropped begins not yet ended
};

} // namespace tilescope::capture
