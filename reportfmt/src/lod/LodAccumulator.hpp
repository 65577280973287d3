#pragma once
// Level-of-detail pyramids of a timeline, accumulated while its rows are written. Building them at
// close with SQL meant sorting every raw row a second time (seconds per million events); here each
// row costs one merge into the last bucket of its track, and close() only merges buckets.
//
// Each track (a thread's depth, a counter series) keeps its non-empty buckets in time order, so
// memory follows what was recorded, not the time span. When the buckets of all tracks together
// exceed a budget, every track is coarsened to the next level (4 times wider buckets), which keeps
// the accumulator bounded whatever the trace's length.

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace tilescope::report::detail {

/// Aggregate of the events of one bucket of an event pyramid.
struct EventLodValue {
    std::int64_t events = 0;
    std::int64_t busyNs = 0;
    std::int64_t longestNs = 0;
    std::int64_t longestNameId = 0;

    void merge(const EventLodValue& o) {
        if (events == 0 || o.longestNs > longestNs) {
            longestNs = o.longestNs;
            longestNameId = o.longestNameId;
        }
        events += o.events;
        busyNs += o.busyNs;
    }
};

/// Aggregate of the samples of one bucket of a counter pyramid.
struct SampleLodValue {
    std::int64_t samples = 0;
    double minValue = 0;
    double maxValue = 0;
    double sumValue = 0;

    void merge(const SampleLodValue& o) {
        if (samples == 0) {
            *this = o;
            return;
        }
        samples += o.samples;
        minValue = std::min(minValue, o.minValue);
        maxValue = std::max(maxValue, o.maxValue);
        sumValue += o.sumValue;
    }
};

/// The pyramid of one kind of row. `Value` has merge(); tracks are identified by a 64-bit key,
/// best made of a major part shifted over kMinorBits and a minor part (see trackFor).
template <class Value> class LodAccumulator {
public:
    static constexpr int kMinorBits = 24;

    struct Bucket {
        std::int64_t index;
        Value value;
    };
    struct Track {
        std::int64_t key;
        std::vector<Bucket> buckets; // ascending index
    };

    LodAccumulator(std::int64_t baseNs, std::size_t maxBuckets)
        : width_(baseNs), maxBuckets_(maxBuckets) {}

    void add(std::int64_t trackKey, std::int64_t t, const Value& v) {
        Track& track = trackFor(trackKey);
        const std::int64_t b = floorDiv(t, width_);
        auto& buckets = track.buckets;
        if (!buckets.empty() && buckets.back().index == b) {
            buckets.back().value.merge(v);
            return;
        }
        if (buckets.empty() || buckets.back().index < b) {
            buckets.push_back({b, v});
        } else { // out of time order: rare, so a sorted insert is fine
            auto it = std::lower_bound(buckets.begin(), buckets.end(), b,
                                       [](const Bucket& x, std::int64_t i) { return x.index < i; });
            if (it != buckets.end() && it->index == b) {
                it->value.merge(v);
                return;
            }
            buckets.insert(it, {b, v});
        }
        if (++total_ > maxBuckets_)
            coarsen();
    }

    int level() const { return level_; }
    std::size_t buckets() const { return total_; }
    const std::vector<Track>& tracks() const { return tracks_; }

    /// Merges groups of four buckets: the next level.
    void coarsen() {
        total_ = 0;
        for (Track& t : tracks_) {
            coarsenBuckets(t.buckets);
            total_ += t.buckets.size();
        }
        ++level_;
        width_ *= 4;
    }

    /// One track's buckets (ascending index) to the next level, in place.
    static void coarsenBuckets(std::vector<Bucket>& buckets) {
        std::size_t out = 0;
        for (std::size_t i = 0; i < buckets.size(); ++i) {
            const std::int64_t b = floorDiv(buckets[i].index, 4);
            if (out > 0 && buckets[out - 1].index == b) {
                buckets[out - 1].value.merge(buckets[i].value);
            } else {
                buckets[out] = {b, buckets[i].value};
                ++out;
            }
        }
        buckets.resize(out);
    }

private:
    static std::int64_t floorDiv(std::int64_t a, std::int64_t b) {
        const std::int64_t q = a / b;
        return (a % b != 0 && a < 0) ? q - 1 : q;
    }

    Track& trackFor(std::int64_t key) {
        if (lastTrack_ < tracks_.size() && tracks_[lastTrack_].key == key)
            return tracks_[lastTrack_];
        // Keys pack a small major part (a thread row, a series id) over kMinorBits of minor part
        // (a depth): a direct two-level table avoids hashing on every row when tracks interleave.
        const std::int64_t major = key >> kMinorBits, minor = key & ((1 << kMinorBits) - 1);
        if (major >= 0 && major < kDirectMajor && minor < kDirectMinor) {
            if (static_cast<std::size_t>(major) >= direct_.size())
                direct_.resize(static_cast<std::size_t>(major) + 1);
            auto& row = direct_[static_cast<std::size_t>(major)];
            if (static_cast<std::size_t>(minor) >= row.size())
                row.resize(static_cast<std::size_t>(minor) + 1, kNoTrack);
            std::uint32_t& slot = row[static_cast<std::size_t>(minor)];
            if (slot == kNoTrack) {
                slot = static_cast<std::uint32_t>(tracks_.size());
                tracks_.push_back({key, {}});
            }
            lastTrack_ = slot;
            return tracks_[lastTrack_];
        }
        auto [it, added] = trackIndex_.try_emplace(key, tracks_.size());
        if (added)
            tracks_.push_back({key, {}});
        lastTrack_ = it->second;
        return tracks_[lastTrack_];
    }

    static constexpr std::int64_t kDirectMajor = std::int64_t{1} << 20;
    static constexpr std::int64_t kDirectMinor = 4096;
    static constexpr std::uint32_t kNoTrack = ~std::uint32_t{0};
    std::vector<std::vector<std::uint32_t>> direct_;
    int level_ = 0;
    std::int64_t width_;
    std::size_t maxBuckets_;
    std::size_t total_ = 0;
    std::vector<Track> tracks_;
    std::unordered_map<std::int64_t, std::size_t> trackIndex_;
    std::size_t lastTrack_ = 0;
};

} // namespace tilescope::report::detail
