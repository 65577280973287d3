#pragma once
// Events held back per track so that they reach the event table in runs of one track.
//
// The event_by_track index (thread, depth, start) is built when a writer closes; SQLite sorts the
// whole table for it. Rows that arrive interleaved over many threads make that sort the largest
// single cost of a bulk import (about 40% of a Chrome JSON import). Written in runs of a few
// thousand rows of one track, already in start order, the same index builds about 30% faster,
// and the inserts themselves cost the same. Row ids change order, nothing else: readers never
// rely on id order across tracks.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace tilescope::report::detail {

/// One event row as the writer stores it.
struct BufferedEvent {
    std::int64_t thread = 0;
    std::int64_t channel = 0;
    std::int64_t name = 0;
    std::int64_t kind = 0;
    std::int64_t start = 0;
    std::optional<std::int64_t> end;
    std::int32_t depth = 0;
};

/// Per-track queues of events with a bounded total. `add` hands a full track's run to `sink`
/// (a callable taking `const std::vector<BufferedEvent>&`); `drain` hands over every queued row,
/// track by track, and must run before each commit so that committed data is complete. The bound
/// (at most 2^18 rows, ~16 MB) is also what a killed writer can lose beyond its open transaction,
/// so a writer passes its transaction size when that is smaller.
class TrackRunBuffer {
public:
    explicit TrackRunBuffer(std::size_t maxHeldRows)
        : maxHeld_(std::max<std::size_t>(1, std::min<std::size_t>(maxHeldRows, 1 << 18))),
          runRows_(std::min<std::size_t>(4096, maxHeld_)) {}

    template <class Sink> void add(const BufferedEvent& e, Sink&& sink) {
        std::vector<BufferedEvent>& run = runFor(e.thread, e.depth);
        run.push_back(e);
        ++held_;
        if (run.size() >= runRows_) {
            held_ -= run.size();
            sink(run);
            run.clear();
        } else if (held_ >= maxHeld_) {
            drain(sink);
        }
    }

    template <class Sink> void drain(Sink&& sink) {
        // Runs keep their capacity (regrowing them after every drain cost 6% of an import),
        // unless together they hold far more than the bound, as with thousands of tracks.
        std::size_t capacity = 0;
        for (const auto& run : runs_)
            capacity += run.capacity();
        const bool release = capacity > 2 * maxHeld_;
        for (auto& run : runs_) {
            if (!run.empty())
                sink(run);
            if (release)
                std::vector<BufferedEvent>().swap(run);
            else
                run.clear();
        }
        held_ = 0;
    }

private:
    // Thread rows are small dense ids and depths are small: a table indexed by both finds a run
    // without hashing (events of many threads arrive interleaved, so a last-track cache misses).
    // Rows outside that table (ids a caller made up) go through a map.
    std::vector<BufferedEvent>& runFor(std::int64_t thread, std::int32_t depth) {
        const auto t = static_cast<std::size_t>(thread), d = static_cast<std::size_t>(depth);
        if (thread < 0 || t >= kTableThreads || d >= kTableDepths) {
            auto [it, inserted] = outside_.try_emplace((thread << 24) ^ depth, runs_.size());
            if (inserted)
                runs_.emplace_back();
            return runs_[it->second];
        }
        if (t >= slots_.size())
            slots_.resize(t + 1);
        auto& byDepth = slots_[t];
        if (d >= byDepth.size())
            byDepth.resize(d + 1, kNone);
        if (byDepth[d] == kNone) {
            byDepth[d] = runs_.size();
            runs_.emplace_back();
        }
        return runs_[byDepth[d]];
    }

    static constexpr std::size_t kNone = ~std::size_t{0};
    std::size_t maxHeld_;
    std::size_t runRows_;
    static constexpr std::size_t kTableThreads = 1 << 16, kTableDepths = 1 << 10;
    std::vector<std::vector<std::size_t>> slots_; // [thread][depth] -> index in runs_
    std::unordered_map<std::int64_t, std::size_t> outside_;
    std::vector<std::vector<BufferedEvent>> runs_;
    std::size_t held_ = 0;
};

} // namespace tilescope::report::detail
