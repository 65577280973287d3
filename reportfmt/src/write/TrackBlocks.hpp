#pragma once
// The event block each track (thread, depth) is filling while a host trace is written.

#include "types/EventBlockCodec.hpp"

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace tilescope::report::detail {

/// Tracepoint metadata of an event in a block being built: its id is known once the block is
/// stored (first_event_id + index).
struct PendingMetadata {
    std::uint32_t index = 0; ///< the event's place in its block
    MetadataPoint point = MetadataPoint::Begin;
    EventMetadata metadata;
};

/// One track's block being built.
struct TrackBlock {
    std::int64_t threadId = 0;
    std::int32_t depth = 0;
    EventBlockEncoder encoder;
    std::vector<PendingMetadata> metadata;
};

/// Finds a track's block by (thread, depth). Thread rows are small dense ids and depths are
/// small: a table indexed by both finds the block without hashing (events of many threads arrive
/// interleaved, so a last-track cache would miss); other keys (ids a caller made up) go through
/// a map. Blocks never move (a deque), so references stay valid.
class TrackBlocks {
public:
    TrackBlock& at(std::int64_t thread, std::int32_t depth) {
        const auto t = static_cast<std::size_t>(thread), d = static_cast<std::size_t>(depth);
        if (thread < 0 || depth < 0 || t >= kTableThreads || d >= kTableDepths) {
            // The writer keeps threads below 2^38 and depths below 2^24: the key is unique.
            auto [it, inserted] = outside_.try_emplace((thread << 24) | depth, blocks_.size());
            if (inserted)
                add(thread, depth);
            return blocks_[it->second];
        }
        if (t >= slots_.size())
            slots_.resize(t + 1);
        auto& byDepth = slots_[t];
        if (d >= byDepth.size())
            byDepth.resize(d + 1, kNone);
        if (byDepth[d] == kNone) {
            byDepth[d] = blocks_.size();
            add(thread, depth);
        }
        return blocks_[byDepth[d]];
    }
    std::deque<TrackBlock>& all() { return blocks_; }

private:
    void add(std::int64_t thread, std::int32_t depth) {
        blocks_.emplace_back();
        blocks_.back().threadId = thread;
        blocks_.back().depth = depth;
    }

    static constexpr std::size_t kNone = ~std::size_t{0};
    static constexpr std::size_t kTableThreads = 1 << 16, kTableDepths = 1 << 10;
    std::vector<std::vector<std::size_t>> slots_; // [thread][depth] -> index in blocks_
    std::unordered_map<std::int64_t, std::size_t> outside_;
    std::deque<TrackBlock> blocks_;
};

} // namespace tilescope::report::detail
