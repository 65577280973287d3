#pragma once
// Packed blocks of host events (host-trace format v4, table `event_block`).
//
// A block holds up to kBlockEvents events (or about kBlockBytes) of one track (thread, depth),
// in the order they were written (start order on a track). Blob layout, little-endian varints
// (LEB128: 7 bits a byte, low bits first, at most 10 bytes for 64 bits) and zigzag for signed
// values:
//   byte 0       layout: 1 = ids implicit (event i has id first_event_id + i),
//                        2 = ids explicit (each event starts with its zigzag id delta)
//   varint       number of events (must equal the row's `events` column)
//   per event:   [layout 2: zigzag(id - previous id), the previous id starting at 0]
//                zigzag(start - previous start), the previous start starting at 0 (64-bit wrap)
//                code: kind Complete with duration d < 2^62: d << 2; Instant: 1; Unfinished: 2;
//                      Complete with a longer duration: 3, then varint d
//                zigzag(name id), zigzag(channel id)
// The duration is end - start as an unsigned 64-bit value, so every int64 start and end with
// end >= start round-trips. Decoding checks every byte it reads: a truncated blob, a varint
// longer than 10 bytes, an unknown code, trailing bytes, a count that disagrees or an end past
// the int64 range is a ReportError naming the file; it never reads outside the blob.

#include "tilescope/report/HostTraceTypes.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::report::detail {

constexpr std::size_t kBlockEvents = 4096;
constexpr std::size_t kBlockBytes = 48 * 1024;

/// Builds one block's blob event by event. `start`/`end` of the block (the row's start_ns and
/// end_ns) are the earliest start and the latest end, an instant or unfinished event counting
/// with its start.
class EventBlockEncoder {
public:
    explicit EventBlockEncoder(bool explicitIds = false) : explicitIds_(explicitIds) {}

    /// `id` is stored only with explicit ids.
    void add(std::int64_t channelId, std::int64_t nameId, EventKind kind, std::int64_t startNs,
             std::int64_t endNs, std::int64_t id = 0);
    std::size_t events() const { return events_; }
    bool empty() const { return events_ == 0; }
    bool full() const { return events_ >= kBlockEvents || size_ >= kBlockBytes; }
    std::int64_t startNs() const { return minStart_; }
    std::int64_t endNs() const { return maxEnd_; }
    /// The blob of the events added since the last clear(); refused (std::logic_error) when empty.
    const std::vector<std::uint8_t>& finish();
    void clear();

private:
    std::uint8_t* room(); // at least kMaxEventBytes free at the end of the body
    static constexpr std::size_t kMaxEventBytes = 64;

    bool explicitIds_;
    // The body grows by doubling and is written through a pointer: a bounds check per event,
    // not per byte (the writer encodes every event of a trace here).
    std::unique_ptr<std::uint8_t[]> body_;
    std::size_t size_ = 0, capacity_ = 0;
    std::vector<std::uint8_t> blob_;
    std::size_t events_ = 0;
    std::int64_t prevStart_ = 0, prevId_ = 0, minStart_ = 0, maxEnd_ = 0;
};

/// A blob as the bytes SQLite binds, and back.
inline std::string_view blobBytes(const std::vector<std::uint8_t>& blob) {
    return {reinterpret_cast<const char*>(blob.data()), blob.size()};
}
inline std::span<const std::uint8_t> blobBytes(std::string_view blob) {
    return {reinterpret_cast<const std::uint8_t*>(blob.data()), blob.size()};
}

/// Appends the events of one block to `out` (thread and depth from the row), checking the blob
/// as described above. `path` and `blockId` name the damaged block in errors.
void decodeEventBlock(std::span<const std::uint8_t> blob, std::int64_t firstEventId,
                      std::int64_t expectedEvents, std::int64_t threadId, std::int32_t depth,
                      std::vector<HostEvent>& out, const std::string& path, std::int64_t blockId);

} // namespace tilescope::report::detail
