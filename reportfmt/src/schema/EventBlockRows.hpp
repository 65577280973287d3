#pragma once
// Storing encoded event blocks as event_block rows: shared by the host-trace writer and the
// upgrade of v1-v3 files (which fills a temp event_block from their event rows).

#include "sqlite/Sqlite.hpp"
#include "types/EventBlockCodec.hpp"

#include <fmt/format.h>

namespace tilescope::report::detail {

/// Inserts a track's finished block into `table` ("event_block" or "temp.event_block").
class EventBlockInserter {
public:
    EventBlockInserter() = default;
    EventBlockInserter(sql::Database& db, std::string_view table)
        : insert_(db.prepare(fmt::format("INSERT INTO {}(thread_id, depth, start_ns, end_ns, "
                                         "first_event_id, events, data) VALUES(?,?,?,?,?,?,?)",
                                         table))) {}

    /// Stores the block's events (none: nothing) and clears it.
    void store(std::int64_t threadId, std::int64_t depth, std::int64_t firstEventId,
               EventBlockEncoder& block) {
        if (block.empty())
            return;
        const std::vector<std::uint8_t>& blob = block.finish();
        insert_.bind(1, threadId).bind(2, depth).bind(3, block.startNs()).bind(4, block.endNs());
        insert_.bind(5, firstEventId).bind(6, static_cast<std::int64_t>(block.events()));
        insert_.bindBlob(7, blobBytes(blob)).run();
        block.clear();
    }

private:
    sql::Statement insert_;
};

} // namespace tilescope::report::detail
