// The event block codec of host-trace format v4 (src/types/EventBlockCodec.hpp): round trips of
// ordinary and extreme events, and damaged blobs refused with a ReportError naming the file.

#include "tilescope/report/ReportError.hpp"
#include "types/EventBlockCodec.hpp"

#include <catch2/catch.hpp>
#include <limits>
#include <random>

using namespace tilescope::report;
using detail::EventBlockEncoder;

namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
const std::string kPath = "trace.pvti";

std::vector<HostEvent> decode(const std::vector<std::uint8_t>& blob, std::int64_t firstId,
                              std::int64_t count, std::int64_t thread = 3, std::int32_t depth = 2) {
    std::vector<HostEvent> out;
    detail::decodeEventBlock(blob, firstId, count, thread, depth, out, kPath, 77);
    return out;
}

void add(EventBlockEncoder& block, const HostEvent& e) {
    block.add(e.channelId, e.nameId, e.kind, e.startNs, e.endNs.value_or(e.startNs), e.id);
}

void requireSame(const std::vector<HostEvent>& got, const std::vector<HostEvent>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        INFO("event " << i);
        CHECK(got[i].id == want[i].id);
        CHECK(got[i].threadId == want[i].threadId);
        CHECK(got[i].depth == want[i].depth);
        CHECK(got[i].channelId == want[i].channelId);
        CHECK(got[i].nameId == want[i].nameId);
        CHECK(got[i].kind == want[i].kind);
        CHECK(got[i].startNs == want[i].startNs);
        CHECK(got[i].endNs == want[i].endNs);
    }
}

/// A damaged blob must be refused with the file and block named.
void requireDamaged(const std::vector<std::uint8_t>& blob, std::int64_t count,
                    const std::string& problem) {
    try {
        decode(blob, 1, count);
        FAIL("a damaged block was accepted");
    } catch (const ReportError& e) {
        const std::string what = e.what();
        CHECK_THAT(what, Catch::Contains(kPath));
        CHECK_THAT(what, Catch::Contains("event block 77"));
        CHECK_THAT(what, Catch::Contains(problem));
    }
}

} // namespace

TEST_CASE("a block round-trips complete, instant and unfinished events with implicit ids") {
    std::vector<HostEvent> events;
    for (std::int64_t i = 0; i < 100; ++i)
        events.push_back({1000 + i, 3, i % 3, 40 + i % 7, EventKind::Complete, 5'000 + i * 100,
                          5'000 + i * 100 + i, 2});
    events[10].kind = EventKind::Instant;
    events[10].endNs = events[10].startNs;
    events.push_back({1100, 3, 1, 9, EventKind::Unfinished, 20'000, std::nullopt, 2});
    EventBlockEncoder block;
    for (const auto& e : events)
        add(block, e);
    CHECK(block.events() == events.size());
    CHECK(block.startNs() == 5'000);
    CHECK(block.endNs() == 20'000); // the unfinished event counts with its start
    const auto& blob = block.finish();
    CHECK(blob.size() < events.size() * 8); // a few bytes an event
    requireSame(decode(blob, 1000, static_cast<std::int64_t>(events.size())), events);
}

TEST_CASE("extreme times, durations and ids round-trip exactly") {
    const std::vector<HostEvent> events = {
        {kMin, 0, kMin, kMax, EventKind::Complete, kMin, kMax, 0}, // the longest duration
        {-5, 0, -1, 0, EventKind::Complete, kMin, kMin, 0},
        {kMax, 0, kMax, kMin, EventKind::Instant, kMax, kMax, 0},
        {0, 0, 0, 0, EventKind::Unfinished, -1, std::nullopt, 0},
        {7, 0, 1, 1, EventKind::Complete, -10, (std::int64_t{1} << 62) - 11, 0}, // 2^62 - 1
        {8, 0, 1, 1, EventKind::Complete, -10, (std::int64_t{1} << 62) - 10, 0}, // 2^62: long form
        {9, 0, 1, 1, EventKind::Complete, kMax, kMax, 0},
    };
    EventBlockEncoder block(/*explicitIds=*/true);
    for (const auto& e : events)
        add(block, e);
    CHECK(block.startNs() == kMin);
    CHECK(block.endNs() == kMax);
    requireSame(decode(block.finish(), 0, static_cast<std::int64_t>(events.size()), 0, 0), events);
}

TEST_CASE("random blocks round-trip and clear() starts a new block") {
    std::mt19937_64 random(42);
    EventBlockEncoder block(true);
    for (int round = 0; round < 20; ++round) {
        std::vector<HostEvent> events;
        const std::size_t n = 1 + random() % 500;
        for (std::size_t i = 0; i < n; ++i) {
            HostEvent e{static_cast<std::int64_t>(random()),
                        1,
                        static_cast<std::int64_t>(random()),
                        static_cast<std::int64_t>(random()),
                        EventKind::Complete,
                        static_cast<std::int64_t>(random()),
                        std::nullopt,
                        4};
            const auto kind = random() % 3;
            if (kind == 0) {
                const auto room =
                    static_cast<std::uint64_t>(kMax - std::max<std::int64_t>(e.startNs, 0));
                e.endNs = e.startNs + static_cast<std::int64_t>(random() % (room + 1));
            } else if (kind == 1)
                e.kind = EventKind::Instant, e.endNs = e.startNs;
            else
                e.kind = EventKind::Unfinished;
            add(block, e);
            events.push_back(e);
        }
        requireSame(decode(block.finish(), 0, static_cast<std::int64_t>(n), 1, 4), events);
        block.clear();
        CHECK(block.empty());
    }
}

TEST_CASE("a block is full at 4096 events or at its byte bound") {
    EventBlockEncoder small;
    for (std::size_t i = 0; i + 1 < detail::kBlockEvents; ++i)
        small.add(1, 1, EventKind::Complete, static_cast<std::int64_t>(i) * 10,
                  static_cast<std::int64_t>(i) * 10 + 5);
    CHECK_FALSE(small.full());
    small.add(1, 1, EventKind::Instant, 1'000'000, 1'000'000);
    CHECK(small.full());
    EventBlockEncoder wide;
    std::size_t events = 0;
    while (!wide.full()) {
        wide.add(kMax, kMin, EventKind::Complete, kMin + static_cast<std::int64_t>(events) * 7,
                 kMax);
        ++events;
    }
    CHECK(events < detail::kBlockEvents);
    CHECK(wide.finish().size() >= detail::kBlockBytes);
}

TEST_CASE("an empty block is refused") {
    EventBlockEncoder block;
    CHECK_THROWS_AS(block.finish(), std::logic_error);
    requireDamaged({1, 0}, 0, "holds 0 events");
}

TEST_CASE("damaged blocks are refused without reading past the blob") {
    EventBlockEncoder block;
    block.add(2, 3, EventKind::Complete, 1'000, 2'000);
    block.add(2, 4, EventKind::Unfinished, 3'000, 3'000);
    const std::vector<std::uint8_t> good = block.finish();
    REQUIRE(decode(good, 1, 2).size() == 2);

    SECTION("every truncation") {
        for (std::size_t size = 0; size < good.size(); ++size) {
            INFO("size " << size);
            requireDamaged({good.begin(), good.begin() + static_cast<std::ptrdiff_t>(size)}, 2,
                           size < 8 ? "" : "truncated"); // below 8 bytes: "cannot fit"
        }
    }
    SECTION("a count that disagrees with the row") {
        requireDamaged(good, 3, "holds 2 events, its row says 3");
        requireDamaged(good, 1, "holds 2 events, its row says 1");
    }
    SECTION("a count far beyond the blob") {
        std::vector<std::uint8_t> blob = {1, 0xff, 0xff, 0xff, 0xff, 0x0f};
        requireDamaged(blob, 4294967295, "cannot fit");
    }
    SECTION("trailing bytes") {
        auto blob = good;
        blob.push_back(0);
        requireDamaged(blob, 2, "trailing bytes");
    }
    SECTION("an unknown layout") {
        auto blob = good;
        blob[0] = 9;
        requireDamaged(blob, 2, "unknown layout 9");
    }
    SECTION("a varint longer than 10 bytes") {
        std::vector<std::uint8_t> blob = {1, 1};
        blob.insert(blob.end(), 11, 0x80);
        blob.insert(blob.end(), {0, 0, 0, 0});
        requireDamaged(blob, 1, "varint");
    }
    SECTION("a varint above 64 bits") {
        std::vector<std::uint8_t> blob = {1, 1};
        blob.insert(blob.end(), 9, 0xff);
        blob.push_back(0x02);
        blob.insert(blob.end(), {0, 0, 0});
        requireDamaged(blob, 1, "varint out of range");
    }
    SECTION("an unknown event code") {
        requireDamaged({1, 1, 0, 5, 0, 0}, 1, "unknown event code 5");
        requireDamaged({1, 1, 0, 7, 0, 0}, 1, "unknown event code 7");
    }
    SECTION("an end past the largest time") {
        // start = 2^62 (zigzag 2^63: varint of 10 bytes), duration 2^62 (long form) -> 2^63.
        std::vector<std::uint8_t> blob = {1, 1};
        blob.insert(blob.end(), 9, 0x80);
        blob.push_back(0x01);
        blob.push_back(3);
        blob.insert(blob.end(), 8, 0x80);
        blob.push_back(0x40);
        blob.insert(blob.end(), {0, 0});
        requireDamaged(blob, 1, "ends past the largest time");
    }
}
