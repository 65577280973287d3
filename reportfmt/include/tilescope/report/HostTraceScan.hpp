#pragma once
// Every event of a host trace in one sequential pass, for readers that want the whole file (the
// Python face's openTrace) rather than a window of one track.

#include "tilescope/report/HostTraceReader.hpp"

#include <cstdint>
#include <vector>

namespace tilescope::report {

/// The events of one thread row, in track order: by depth, then start, then id. Parallel columns
/// (no std::optional per row): an Unfinished event's end is its start, hasEnd[i] is 0.
struct ThreadEventColumns {
    std::vector<std::int64_t> id, channelId, nameId, startNs, endNs;
    std::vector<std::int32_t> depth;
    std::vector<EventKind> kind;
    std::size_t size() const { return id.size(); }
};

/// Reads every event of every thread of `threads` (thread row ids, as from reader.threads()):
/// each thread's event blocks in track order, decoded straight into its columns. Events of a
/// thread not in `threads` are not read. A damaged block (a blob that does not decode, a depth
/// out of range) throws ReportError naming the file, as HostTraceReader::events does.
std::vector<ThreadEventColumns> scanThreadEvents(const HostTraceReader& reader,
                                                 const std::vector<std::int64_t>& threads);

} // namespace tilescope::report
