#pragma once
// A bounded hand-off of chunks (batches of scanned events, runs of nested rows) from one producing
// thread to one consuming thread, with the chunks' buffers recycled (a chunk is up to megabytes:
// allocating each anew costs page faults). The Chrome import scans on one thread while the other
// holds events, then nests on one thread while the other writes the rows already nested.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace tilescope::report::detail {

/// Thrown to the producer by push() once the consumer has cancelled (it failed): the producer
/// stops; the consumer reports its own error.
struct ChunkQueueCancelled {};

/// One producer, one consumer; at most `capacity` full chunks wait. A chunk has clear(), which
/// empties it and keeps its buffers. The producer ends the stream
/// with close(error); the consumer may cancel() it, after which push() throws
/// ChunkQueueCancelled.
template <class Chunk> class ChunkQueue {
public:
    explicit ChunkQueue(std::size_t capacity) : capacity_(capacity) {}

    /// Producer: a chunk to fill, recycled when one was given back (cleared, capacity kept).
    Chunk spare() {
        std::lock_guard lock(m_);
        if (spares_.empty())
            return Chunk{};
        Chunk c = std::move(spares_.back());
        spares_.pop_back();
        return c;
    }
    /// Producer: waits for room, then queues `chunk`.
    void push(Chunk&& chunk) {
        std::unique_lock lock(m_);
        cv_.wait(lock, [&] { return cancelled_ || full_.size() < capacity_; });
        if (cancelled_)
            throw ChunkQueueCancelled{};
        full_.push_back(std::move(chunk));
        cv_.notify_all();
    }
    void close(std::exception_ptr error = nullptr) {
        std::lock_guard lock(m_);
        closed_ = true;
        error_ = error;
        cv_.notify_all();
    }

    /// Consumer: the next chunk in order, or empty at the end of the stream.
    std::optional<Chunk> pop() {
        std::unique_lock lock(m_);
        cv_.wait(lock, [&] { return closed_ || !full_.empty(); });
        if (full_.empty())
            return std::nullopt;
        Chunk c = std::move(full_.front());
        full_.pop_front();
        cv_.notify_all();
        return c;
    }
    /// Consumer: hands a written chunk back for reuse.
    void recycle(Chunk&& chunk) {
        chunk.clear();
        std::lock_guard lock(m_);
        spares_.push_back(std::move(chunk));
    }
    void cancel() {
        std::lock_guard lock(m_);
        cancelled_ = true;
        cv_.notify_all();
    }
    /// The producer's error, once the stream is closed.
    std::exception_ptr error() {
        std::lock_guard lock(m_);
        return error_;
    }

private:
    std::size_t capacity_;
    std::mutex m_;
    std::condition_variable cv_;
    std::deque<Chunk> full_;
    std::vector<Chunk> spares_;
    bool closed_ = false, cancelled_ = false;
    std::exception_ptr error_;
};

} // namespace tilescope::report::detail
