// Export of a host trace as Chrome trace-event JSON, streamed thread by thread from SQLite.

#include "ChromeTraceJsonOut.hpp"
#include "read/EventBlocks.hpp"
#include "sqlite/Sqlite.hpp"
#include "tilescope/report/ChromeTrace.hpp"
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/HostTraceTypes.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/ReportFile.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <unordered_map>

namespace tilescope::report {

using detail::JsonOut;
using detail::micros;
using detail::quoted;

namespace {

/// Tracepoint metadata of every event that has some (format v5), by event id.
struct ExportedMetadata {
    std::optional<EventMetadata> begin, end;
};

std::unordered_map<std::int64_t, ExportedMetadata> readMetadata(sql::Database& db) {
    std::unordered_map<std::int64_t, ExportedMetadata> out;
    auto st = db.prepare("SELECT event_id, point, type, data FROM event_metadata");
    while (st.step()) {
        auto& m = out[st.int64(0)];
        (st.int64(1) == 1 ? m.end : m.begin) = EventMetadata{st.text(2), std::string(st.blob(3))};
    }
    return out;
}

/// Adds one piece of metadata to an event's `args`: the members of a JSON object (the end's after
/// the begin's, as a viewer merges the args of an E event into its B event), any other JSON value
/// under `key`, and metadata of another type as its text under its type name.
void addArgs(nlohmann::json& args, const EventMetadata& m, const char* key) {
    if (m.type == kJsonMetadataType) {
        auto json = nlohmann::json::parse(m.data, nullptr, /*allow_exceptions=*/false);
        if (json.is_object()) {
            for (auto it = json.begin(); it != json.end(); ++it)
                args[it.key()] = std::move(it.value());
            return;
        }
        if (!json.is_discarded()) {
            args[key] = std::move(json);
            return;
        }
    }
    args[m.type] = metadataText(m, -1);
}

/// `,"args":{...}` of an event with metadata, empty otherwise.
std::string argsOf(const std::unordered_map<std::int64_t, ExportedMetadata>& metadata,
                   std::int64_t eventId) {
    const auto it = metadata.find(eventId);
    if (it == metadata.end())
        return {};
    nlohmann::json args = nlohmann::json::object();
    if (it->second.begin)
        addArgs(args, *it->second.begin, "metadata");
    if (it->second.end)
        addArgs(args, *it->second.end, "end_metadata");
    return ",\"args\":" + args.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace

ChromeTraceStats exportChromeTrace(const std::filesystem::path& input,
                                   const std::filesystem::path& output,
                                   const std::vector<std::filesystem::path>& profiles) {
    ReportFile file(input.string());
    if (file.kind() != FileKind::HostTrace)
        throw ReportError(input.string(), "is a profile report, not a host trace (.pvti)");
    auto& db = file.database();
    const std::filesystem::path partial = output.string() + ".partial";
    ChromeTraceStats stats;
    try {
        JsonOut out(partial);
        out.write("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
        auto procs = db.prepare("SELECT p.pid, n.text FROM process p JOIN name n ON n.id = "
                                "p.name_id ORDER BY p.id");
        while (procs.step())
            out.event(
                fmt::format(R"({{"ph":"M","name":"process_name","pid":{},"args":{{"name":{}}}}})",
                            procs.int64(0), quoted(procs.text(1))));
        auto threads =
            db.prepare("SELECT p.pid, t.tid, n.text FROM thread t JOIN process p ON "
                       "p.id = t.process_id JOIN name n ON n.id = t.name_id ORDER BY t.id");
        while (threads.step())
            out.event(fmt::format(
                R"({{"ph":"M","name":"thread_name","pid":{},"tid":{},"args":{{"name":{}}}}})",
                threads.int64(0), threads.int64(1), quoted(threads.text(2))));
        // Per thread in time order, parents before the children starting with them: the order an
        // importer needs to rebuild the nesting. A thread's blocks are decoded (by depth, then
        // start) and its events put in (start, depth) order.
        std::unordered_map<std::int64_t, std::string> names;
        auto nameOf = [&, lookup = db.prepare("SELECT text FROM name WHERE id = ?")](
                          std::int64_t id) mutable -> const std::string& {
            auto [it, inserted] = names.try_emplace(id);
            if (inserted) {
                lookup.reset();
                it->second = quoted(lookup.bind(1, id).step() ? lookup.text(0) : std::string());
            }
            return it->second;
        };
        std::unordered_map<std::int64_t, std::int64_t> channelNames;
        auto channels = db.prepare("SELECT id, name_id FROM channel");
        while (channels.step())
            channelNames[channels.int64(0)] = channels.int64(1);
        const auto metadata = readMetadata(db);
        auto tracks = db.prepare("SELECT t.id, p.pid, t.tid FROM thread t JOIN process p ON "
                                 "p.id = t.process_id ORDER BY t.id");
        auto blocks = db.prepare(std::string(detail::kBlockColumns) +
                                 "WHERE thread_id = ? ORDER BY depth, start_ns, id");
        std::vector<HostEvent> events;
        while (tracks.step()) {
            events.clear();
            blocks.reset();
            blocks.bind(1, tracks.int64(0));
            while (blocks.step())
                detail::decodeBlockRow(blocks, events, file.path());
            std::stable_sort(events.begin(), events.end(), [](const auto& a, const auto& b) {
                return a.startNs != b.startNs ? a.startNs < b.startNs : a.depth < b.depth;
            });
            for (const HostEvent& e : events) {
                const auto channel = channelNames.find(e.channelId);
                const std::string common = fmt::format(
                    R"("name":{},"cat":{},"pid":{},"tid":{},"ts":{}{})", nameOf(e.nameId),
                    nameOf(channel == channelNames.end() ? 0 : channel->second), tracks.int64(1),
                    tracks.int64(2), micros(e.startNs),
                    metadata.empty() ? std::string() : argsOf(metadata, e.id));
                switch (e.kind) {
                case EventKind::Complete:
                    out.event(fmt::format(R"({{"ph":"X",{},"dur":{}}})", common,
                                          micros(*e.endNs - e.startNs)));
                    break;
                case EventKind::Instant:
                    out.event(fmt::format(R"({{"ph":"i","s":"t",{}}})", common));
                    break;
                case EventKind::Unfinished:
                    out.event(fmt::format(R"({{"ph":"B",{}}})", common));
                    break;
                }
                ++stats.events;
            }
        }
        auto units = db.prepare("SELECT p.pid, n.text, g.unit FROM graph g JOIN process p ON "
                                "p.id = g.process_id JOIN name n ON n.id = g.name_id");
        while (units.step())
            out.event(fmt::format(
                R"({{"ph":"M","name":"tilescope_counter_unit","pid":{},"args":{{"name":{},"unit":{}}}}})",
                units.int64(0), quoted(units.text(1)), quoted(units.text(2))));
        auto samples =
            db.prepare("SELECT p.pid, gn.text, sn.text, s.t_ns, s.value FROM sample s "
                       "JOIN series se ON se.id = s.series_id JOIN graph g ON g.id = se.graph_id "
                       "JOIN process p ON p.id = g.process_id JOIN name gn ON gn.id = g.name_id "
                       "JOIN name sn ON sn.id = se.name_id ORDER BY s.series_id, s.t_ns");
        while (samples.step()) {
            out.event(fmt::format(R"({{"ph":"C","name":{},"pid":{},"ts":{},"args":{{{}:{}}}}})",
                                  quoted(samples.text(1)), samples.int64(0),
                                  micros(samples.int64(3)), quoted(samples.text(2)),
                                  nlohmann::json(samples.real(4)).dump()));
            ++stats.samples;
        }
        stats.heatmapBins = detail::exportHeatmapCounters(db, out);
        // Device processes get ids above every host pid, so they never merge with one.
        std::int64_t devicePid = 0;
        auto maxPid = db.prepare("SELECT coalesce(max(pid), 0) FROM process");
        if (maxPid.step())
            devicePid = maxPid.int64(0);
        for (const auto& profile : profiles)
            stats.events += detail::exportDeviceEvents(profile, ++devicePid, out);
        out.write("\n]}\n");
        stats.bytes = out.bytes();
        out.close();
    } catch (...) {
        std::error_code ec;
        std::filesystem::remove(partial, ec);
        throw;
    }
    std::error_code ec;
    std::filesystem::rename(partial, output, ec);
    if (ec)
        throw ReportError(output.string(), "cannot write: " + ec.message());
    return stats;
}

} // namespace tilescope::report
