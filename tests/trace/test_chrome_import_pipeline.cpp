// The Chrome import's hand-off between its nesting thread and its writing thread: the queue's
// order, recycling, cancellation and error passing, and a trace large enough to need many chunks
// imported exactly (every event, on its depth row, each row in time order).

#include "chrome/ChunkQueue.hpp"
#include "tilescope/report/ChromeTrace.hpp"
#include "tilescope/report/HostTraceReader.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using tilescope::report::detail::ChunkQueue;
using tilescope::report::detail::ChunkQueueCancelled;

namespace {

struct Chunk {
    std::vector<int> rows;
    void clear() { rows.clear(); }
};

fs::path scratch(const std::string& name) {
    static const fs::path d = [] {
        const fs::path p = fs::temp_directory_path() /
                           ("tilescope-chrome-pipeline-tests-" + std::to_string(::getpid()));
        fs::remove_all(p);
        fs::create_directories(p);
        return p;
    }();
    return d / name;
}

} // namespace

TEST_CASE("row chunks arrive in order, and their buffers come back for reuse") {
    ChunkQueue<Chunk> queue(2);
    std::thread producer([&] {
        for (int i = 0; i < 100; ++i) {
            Chunk c = queue.spare();
            CHECK(c.rows.empty());
            c.rows.assign(1000, i);
            queue.push(std::move(c));
        }
        queue.close();
    });
    int expected = 0;
    std::size_t recycledCapacity = 0;
    while (auto c = queue.pop()) {
        REQUIRE(c->rows.size() == 1000);
        CHECK(c->rows.front() == expected);
        ++expected;
        recycledCapacity = std::max(recycledCapacity, c->rows.capacity());
        queue.recycle(std::move(*c));
    }
    producer.join();
    CHECK(expected == 100);
    CHECK(queue.error() == nullptr);
    const Chunk reused = queue.spare();
    CHECK(reused.rows.empty());
    CHECK(reused.rows.capacity() >= 1000);
}

TEST_CASE("a consumer that fails stops a producer blocked on a full queue") {
    ChunkQueue<Chunk> queue(1);
    bool stopped = false;
    std::thread producer([&] {
        try {
            for (;;)
                queue.push(Chunk{{1, 2, 3}});
        } catch (const ChunkQueueCancelled&) {
            stopped = true;
        }
    });
    REQUIRE(queue.pop()); // the producer is now blocked or about to be
    queue.cancel();
    producer.join();
    CHECK(stopped);
}

TEST_CASE("a producer's error reaches the consumer after the chunks before it") {
    ChunkQueue<Chunk> queue(4);
    std::thread producer([&] {
        queue.push(Chunk{{7}});
        queue.close(std::make_exception_ptr(std::runtime_error("nesting failed")));
    });
    producer.join();
    auto first = queue.pop();
    REQUIRE(first);
    CHECK(first->rows == std::vector<int>{7});
    CHECK_FALSE(queue.pop());
    REQUIRE(queue.error() != nullptr);
    CHECK_THROWS_WITH(std::rethrow_exception(queue.error()), "nesting failed");
}

TEST_CASE("a thread of many chunks imports every event on its row in time order") {
    // One thread of 3 * 40,000 nested events (more than a chunk of 32 K rows per depth), written
    // children first as clang does, so that the thread is sorted before nesting.
    const fs::path json = scratch("many-chunks.json");
    constexpr int kParents = 40000;
    {
        std::ofstream out(json);
        out << "[";
        for (int i = 0; i < kParents; ++i) {
            const long ts = 10L * i;
            out << (i ? "," : "")
                << "{\"ph\":\"X\",\"name\":\"leaf\",\"pid\":1,\"tid\":2,\"ts\":" << ts + 2
                << ",\"dur\":1},"
                << "{\"ph\":\"X\",\"name\":\"mid\",\"pid\":1,\"tid\":2,\"ts\":" << ts + 1
                << ",\"dur\":3},"
                << "{\"ph\":\"X\",\"name\":\"top\",\"pid\":1,\"tid\":2,\"ts\":" << ts
                << ",\"dur\":5}";
        }
        out << "]";
    }
    const fs::path out = scratch("many-chunks.pvti");
    const auto stats = tilescope::report::importChromeTrace(json, out);
    CHECK(stats.events == 3u * kParents);
    CHECK(stats.repairs.reordered == 2u * kParents); // mid and top come after a later start

    const tilescope::report::HostTraceReader r(out.string());
    REQUIRE(r.threads().size() == 1);
    const auto thread = r.threads().front().id;
    REQUIRE(r.maxDepth(thread) == 2);
    for (std::int32_t depth = 0; depth <= 2; ++depth) {
        INFO("depth " << depth);
        const auto rows = r.events(thread, depth, std::numeric_limits<std::int64_t>::min(),
                                   std::numeric_limits<std::int64_t>::max(), 1 << 20);
        REQUIRE(rows.size() == std::size_t{kParents});
        const char* expected = depth == 0 ? "top" : depth == 1 ? "mid" : "leaf";
        for (std::size_t i = 0; i < rows.size(); ++i) {
            REQUIRE(rows[i].startNs == 10'000L * static_cast<long>(i) + 1000L * depth);
            REQUIRE(r.name(rows[i].nameId) == expected);
        }
    }

    // The benchmark's diagnostic does the same work and writes no event rows.
    tilescope::report::ChromeTraceImportOptions discard;
    discard.discardEventRows = true;
    const fs::path none = scratch("many-chunks-discarded.pvti");
    const auto discarded = tilescope::report::importChromeTrace(json, none, discard);
    CHECK(discarded.events == stats.events);
    CHECK(discarded.repairs.reordered == stats.repairs.reordered);
    CHECK(tilescope::report::HostTraceReader(none.string()).counts().events == 0);
    fs::remove_all(scratch("").parent_path());
}
