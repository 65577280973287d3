// Tracepoint metadata of host events (format v5): the event_metadata side table, read by key.

#include "sqlite/Sqlite.hpp"
#include "tilescope/report/HostTraceReader.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace tilescope::report {
namespace {

std::vector<EventMetadataEntry> readEntries(sql::Statement& st) {
    std::vector<EventMetadataEntry> out;
    while (st.step()) {
        EventMetadataEntry e;
        e.eventId = st.int64(0);
        e.point = st.int64(1) == 1 ? MetadataPoint::End : MetadataPoint::Begin;
        e.metadata.type = st.text(2);
        e.metadata.data = std::string(st.blob(3));
        out.push_back(std::move(e));
    }
    return out;
}

// True when `text` is valid UTF-8 without control characters other than tab and newlines.
bool printableUtf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
                return false;
            ++i;
            continue;
        }
        const std::size_t extra = (c & 0xe0) == 0xc0   ? 1
                                  : (c & 0xf0) == 0xe0 ? 2
                                  : (c & 0xf8) == 0xf0 ? 3
                                                       : 0;
        if (extra == 0 || i + extra >= text.size())
            return false;
        for (std::size_t k = 1; k <= extra; ++k)
            if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80)
                return false;
        i += extra + 1;
    }
    return true;
}

} // namespace

std::vector<EventMetadataEntry> HostTraceReader::eventMetadata(std::int64_t eventId) const {
    auto st = file_.database().prepare("SELECT event_id, point, type, data FROM event_metadata "
                                       "WHERE event_id = ? ORDER BY point");
    st.bind(1, eventId);
    return readEntries(st);
}

std::vector<EventMetadataEntry> HostTraceReader::eventMetadataBetween(std::int64_t fromId,
                                                                      std::int64_t toId) const {
    auto st = file_.database().prepare("SELECT event_id, point, type, data FROM event_metadata "
                                       "WHERE event_id BETWEEN ? AND ? ORDER BY event_id, point");
    st.bind(1, fromId).bind(2, toId);
    return readEntries(st);
}

std::int64_t HostTraceReader::eventsWithMetadata() const {
    auto st = file_.database().prepare("SELECT count(DISTINCT event_id) FROM event_metadata");
    return st.step() ? st.int64(0) : 0;
}

bool HostTraceReader::hasEventMetadata() const {
    auto st = file_.database().prepare("SELECT 1 FROM event_metadata LIMIT 1");
    return st.step();
}

std::string metadataText(const EventMetadata& metadata, int indent) {
    if (metadata.type == kJsonMetadataType) {
        const auto json = nlohmann::json::parse(metadata.data, nullptr, /*allow_exceptions=*/false);
        if (!json.is_discarded())
            return json.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
        return metadata.data + " (not valid JSON)";
    }
    if (printableUtf8(metadata.data))
        return metadata.data;
    std::string hex;
    for (const char c : metadata.data)
        hex += fmt::format("{:02x}", static_cast<unsigned char>(c));
    return fmt::format("{} bytes: {}", metadata.data.size(), hex);
}

} // namespace tilescope::report
