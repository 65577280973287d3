#pragma once
// Aggregations over a host trace for the system analyser: the call tree and per-name statistics
// of a time range, name search, and the interned names. All SQL stays in reportfmt.

#include "tilescope/report/HostTraceReader.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::report {

/// One node of a host call tree: the events of one name reached through the same chain of
/// enclosing event names (on any thread). Times are clipped to the range the tree was built for;
/// self time is the total minus the time of the node's direct children.
struct CallTreeNode {
    std::int64_t nameId = 0; ///< 0 for the root
    std::int32_t parent = -1;
    std::vector<std::int32_t> children;
    std::uint64_t count = 0;
    std::int64_t totalNs = 0;
    std::int64_t selfNs = 0;
    std::int64_t minNs = 0;
    std::int64_t maxNs = 0;
};

/// Figures of every event of one name in a range, wherever it occurs in the tree.
struct EventNameStatistics {
    std::int64_t nameId = 0;
    std::uint64_t count = 0;
    std::int64_t totalNs = 0;
    std::int64_t selfNs = 0;
    std::int64_t minNs = 0;
    std::int64_t maxNs = 0;
    double meanNs() const { return count ? double(totalNs) / double(count) : 0.0; }
};

/// The call tree and per-name statistics of the events overlapping [fromNs, toNs]. `nodes[0]` is
/// the root; `events` and `totalNs` count every event in the range (all depths, durations
/// clipped to the range, instants as 0 ns, unfinished events running to the range's end).
struct HostCallTree {
    std::int64_t fromNs = 0;
    std::int64_t toNs = 0;
    std::vector<CallTreeNode> nodes;
    std::vector<EventNameStatistics> byName; ///< sorted by total time, longest first
    std::uint64_t events = 0;
    std::int64_t totalNs = 0;
};

/// Builds the call tree of [fromNs, toNs] from every thread, one indexed range query per track
/// (thread, depth): an event's parent is the event of the depth above that encloses its start.
/// An event whose parent lies outside the range hangs from the root. Throws ReportError.
HostCallTree buildCallTree(const HostTraceReader& reader, std::int64_t fromNs, std::int64_t toNs);

/// Every interned name, as (id, text), in id order.
std::vector<std::pair<std::int64_t, std::string>> hostTraceNames(const HostTraceReader& reader);

/// Events whose name is one of `nameIds`, in start order, at most `limit`; `truncated` is set
/// when more matched. Decodes every event block once (there is no index by name).
std::vector<HostEvent> findEventsByName(const HostTraceReader& reader,
                                        const std::vector<std::int64_t>& nameIds,
                                        std::int64_t limit, bool* truncated = nullptr);

} // namespace tilescope::report
