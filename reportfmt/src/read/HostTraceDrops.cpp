// HostTraceReader's dropped-event counts: metadata rows `dropped_events.thread.<id>` = count,
// written by the pvti tracer when its writer fell behind its bound. Older files have none.

#include "sqlite/Sqlite.hpp"
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/ReportError.hpp"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>

namespace tilescope::report {
namespace {

std::int64_t parseCount(const std::string& text, const std::string& path, const std::string& key) {
    try {
        std::size_t used = 0;
        const std::int64_t v = std::stoll(text, &used);
        if (used == text.size() && v >= 0 && !text.empty())
            return v;
    } catch (const std::logic_error&) {
    }
    throw ReportError(path,
                      fmt::format("file is damaged (metadata {} is '{}', not a count)", key, text));
}

} // namespace

std::vector<DroppedEvents> HostTraceReader::droppedEvents() const {
    const std::size_t prefix = std::strlen(kDroppedEventsKeyPrefix);
    // Keys of the prefix sort between it and the prefix with its last character incremented.
    std::string upper(kDroppedEventsKeyPrefix);
    ++upper.back();
    auto st =
        file_.database().prepare("SELECT key, value FROM metadata WHERE key >= ? AND key < ?");
    st.bind(1, std::string_view(kDroppedEventsKeyPrefix)).bind(2, std::string_view(upper));
    std::vector<DroppedEvents> out;
    while (st.step()) {
        const std::string key = st.text(0);
        const std::string id = key.substr(prefix);
        const std::int64_t threadId = parseCount(id, path(), key);
        const std::int64_t events = parseCount(st.text(1), path(), key);
        if (events > 0)
            out.push_back({threadId, events});
    }
    std::sort(out.begin(), out.end(), [](const DroppedEvents& a, const DroppedEvents& b) {
        return a.threadId < b.threadId;
    });
    return out;
}

} // namespace tilescope::report
