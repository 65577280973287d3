#include "ThreadEventBuffer.hpp"

#include <algorithm>

namespace tilescope::capture {
namespace {
std::atomic<std::uint64_t> gNextSerial{1};
}

ChunkBudget::ChunkBudget(std::int64_t limit)
    : limitBytes(std::max<std::int64_t>(limit, ThreadEventBuffer::kChunkBytes)),
      freeChunksPerThread(static_cast<std::uint32_t>(
          std::max<std::int64_t>(4, limitBytes / ThreadEventBuffer::kChunkBytes / 4))) {}

// The first chunk is taken whatever the budget: a thread always has somewhere to record the
// ends of what it began (so the bound can be exceeded by one chunk per traced thread).
ThreadEventBuffer::ThreadEventBuffer(std::int64_t tid, std::string name,
                                     std::shared_ptr<ChunkBudget> budget)
    : tid_(tid), name_(std::move(name)), serial_(gNextSerial.fetch_add(1)),
      budget_(std::move(budget)), head_(new Chunk), tail_(head_) {
    budget_->bufferedBytes.fetch_add(kChunkBytes, std::memory_order_relaxed);
}

ThreadEventBuffer::~ThreadEventBuffer() {
    std::int64_t held = 0;
    for (Chunk* c = head_; c;) {
        Chunk* next = c->next.load(std::memory_order_relaxed);
        delete c;
        held += kChunkBytes;
        c = next;
    }
    budget_->bufferedBytes.fetch_sub(held, std::memory_order_relaxed);
    std::int64_t free = 0;
    for (Chunk* list : {ownFree_, freeStack_.load(std::memory_order_acquire)})
        for (Chunk* c = list; c;) {
            Chunk* next = c->nextFree;
            delete c;
            free += kChunkBytes;
            c = next;
        }
    budget_->freeBytes.fetch_sub(free, std::memory_order_relaxed);
}

void ThreadEventBuffer::openCursor(ThreadCursor& cursor, std::uint32_t generation) {
    cursor.records = tail_->records;
    cursor.published = &tail_->published;
    cursor.used = tailUsed_;
    cursor.capacity = Chunk::kCapacity;
    cursor.generation = generation;
}

bool ThreadEventBuffer::appendSlow(ThreadCursor& cursor, const EventRecord& record) {
    using namespace pvti::detail;
    const std::uint32_t generation = cursor.generation;
    if (record.kind == kMetadataRecord) {
        // Metadata rides on the event recorded after it: kept only when there is room now, and
        // neither counted as a dropped event nor ending a drop (the event after it does that).
        if (dropping_)
            return false;
        tailUsed_ = cursor.used;
        if (!makeRoom(false))
            return false;
        append(record);
        openCursor(cursor, generation);
        return true;
    }
    if (!dropping_) {
        tailUsed_ = cursor.used; // the open cursor was appending to tail_
        if (makeRoom(false)) {
            append(record);
            openCursor(cursor, generation);
            return true;
        }
        dropping_ = true;
        dropDepth_ = 0;
        cursor.capacity = 0; // every event comes here until dropping stops
        cursor.used = 0;
    }
    if (dropDepth_ > 0) { // inside a dropped begin: drop everything until it ends
        if (record.kind == kBeginEvent)
            ++dropDepth_;
        else if (record.kind == kEndEvent)
            --dropDepth_;
        drop();
        return false;
    }
    if (record.kind == kEndEvent) { // its begin was recorded: record it, over budget if need be
        makeRoom(true);
        append(record);
        return true;
    }
    if (!makeRoom(false)) {
        if (record.kind == kBeginEvent)
            ++dropDepth_;
        drop();
        return false;
    }
    dropping_ = false;
    append(record);
    openCursor(cursor, generation);
    return true;
}

bool ThreadEventBuffer::makeRoom(bool overBudget) {
    if (tailUsed_ < Chunk::kCapacity)
        return true;
    if (!overBudget &&
        budget_->bufferedBytes.load(std::memory_order_relaxed) + kChunkBytes > budget_->limitBytes)
        return false;
    if (!ownFree_)
        ownFree_ = freeStack_.exchange(nullptr, std::memory_order_acquire);
    Chunk* fresh = ownFree_;
    if (fresh) {
        ownFree_ = fresh->nextFree;
        fresh->nextFree = nullptr;
        freeCount_.fetch_sub(1, std::memory_order_relaxed);
        budget_->freeBytes.fetch_sub(kChunkBytes, std::memory_order_relaxed);
    } else {
        fresh = new Chunk;
    }
    budget_->bufferedBytes.fetch_add(kChunkBytes, std::memory_order_relaxed);
    tail_->next.store(fresh, std::memory_order_release);
    tail_ = fresh;
    tailUsed_ = 0;
    return true;
}

void ThreadEventBuffer::append(const EventRecord& record) {
    tail_->records[tailUsed_] = record;
    ++tailUsed_;
    tail_->published.store(tailUsed_, std::memory_order_release);
}

void ThreadEventBuffer::drop() {
    // Only the producer writes the count: a plain increment, published for the writer thread.
    dropped_.store(dropped_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

void ThreadEventBuffer::recycle(Chunk* chunk) {
    budget_->bufferedBytes.fetch_sub(kChunkBytes, std::memory_order_relaxed);
    if (freeCount_.load(std::memory_order_relaxed) >= budget_->freeChunksPerThread ||
        budget_->freeBytes.load(std::memory_order_relaxed) + kChunkBytes >
            budget_->limitBytes / 2) {
        delete chunk;
        return;
    }
    budget_->freeBytes.fetch_add(kChunkBytes, std::memory_order_relaxed);
    chunk->published.store(0, std::memory_order_relaxed);
    chunk->next.store(nullptr, std::memory_order_relaxed);
    freeCount_.fetch_add(1, std::memory_order_relaxed);
    Chunk* top = freeStack_.load(std::memory_order_relaxed);
    do
        chunk->nextFree = top;
    while (!freeStack_.compare_exchange_weak(top, chunk, std::memory_order_release,
                                             std::memory_order_relaxed));
}

} // namespace tilescope::capture
