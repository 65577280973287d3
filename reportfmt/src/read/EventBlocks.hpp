#pragma once
// Reading event_block rows (host-trace format v4; temp rows for upgraded v1-v3 files): the one
// place that turns a block row into HostEvents, for the reader, the scans and the statistics.

#include "sqlite/Sqlite.hpp"
#include "tilescope/report/HostTraceTypes.hpp"

#include <string>
#include <vector>

namespace tilescope::report::detail {

/// Columns a block query selects, in the order decodeBlockRow reads them; follow with WHERE/ORDER.
constexpr const char* kBlockColumns =
    "SELECT id, thread_id, depth, first_event_id, events, data FROM event_block ";

/// Appends the events of the block row `st` is on (selected with kBlockColumns) to `out`,
/// checking the row and its blob; errors name `path`.
void decodeBlockRow(const sql::Statement& st, std::vector<HostEvent>& out, const std::string& path);

/// Calls `f(const HostEvent&)` for every event of the blocks `st` returns, block by block.
template <class F> void forEachBlockEvent(sql::Statement& st, const std::string& path, F&& f) {
    std::vector<HostEvent> events;
    while (st.step()) {
        events.clear();
        decodeBlockRow(st, events, path);
        for (const HostEvent& e : events)
            f(e);
    }
}

} // namespace tilescope::report::detail
