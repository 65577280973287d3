// `summary` of a host trace. Events per thread come from the coarsest level of the event pyramid
// (at most ~1024 rows per track whatever the number of events); only a file without pyramids (a
// killed writer's, or one too small to need them) is counted from the event blocks' counts.

#include "HostTraceSummary.hpp"

#include "ReportOpening.hpp"
#include "TargetDescription.hpp"
#include "Units.hpp"
#include "tilescope/report/HostTraceReader.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

namespace tilescope::cli {
namespace {

using nlohmann::json;

struct ThreadActivity {
    report::ThreadInfo thread;
    std::string processName;
    std::int64_t pid = 0;
    std::uint64_t events = 0;
};

std::map<std::int64_t, std::uint64_t>
eventsPerThread(const report::HostTraceReader& reader,
                const std::vector<report::ThreadInfo>& threads,
                const std::optional<std::pair<std::int64_t, std::int64_t>>& span) {
    std::map<std::int64_t, std::uint64_t> counts;
    if (!span)
        return counts;
    const std::int64_t level = reader.hasLevelOfDetail()
                                   ? reader.eventLodLevelFor(std::numeric_limits<double>::max())
                                   : -1;
    if (level >= 0) {
        for (const auto& t : threads)
            for (std::int32_t depth = 0; depth <= reader.maxDepth(t.id); ++depth)
                for (const auto& bucket :
                     reader.eventLod(t.id, depth, level, span->first, span->second))
                    counts[t.id] += bucket.events;
        return counts;
    }
    reader.file().query(
        "SELECT thread_id, sum(events) FROM event_block GROUP BY thread_id",
        [](const std::vector<std::string>&) {},
        [&](const report::ReportFile::Row& row) {
            if (row.size() == 2 && row[0] && row[1])
                counts[std::stoll(*row[0])] = std::stoull(*row[1]);
            return true;
        });
    return counts;
}

} // namespace

void printHostTraceSummary(report::ReportFile file, bool asJson) {
    const std::string path = file.path();
    readingReport(path, [&] {
        const report::HostTraceReader reader(std::move(file));
        const auto counts = reader.counts();
        const auto span = reader.timeSpan();
        const auto threads = reader.threads();
        std::map<std::int64_t, report::ProcessInfo> processes;
        for (auto& p : reader.processes())
            processes[p.id] = p;
        const auto perThread = eventsPerThread(reader, threads, span);
        std::vector<ThreadActivity> activity;
        for (const auto& t : threads) {
            const auto process = processes.find(t.processId);
            const auto events = perThread.find(t.id);
            activity.push_back({t, process == processes.end() ? "" : process->second.name,
                                process == processes.end() ? 0 : process->second.pid,
                                events == perThread.end() ? 0 : events->second});
        }

        if (asJson) {
            json threadsJson = json::array();
            for (const auto& a : activity)
                threadsJson.push_back({{"id", a.thread.id},
                                       {"tid", a.thread.tid},
                                       {"name", a.thread.name},
                                       {"process", a.processName},
                                       {"pid", a.pid},
                                       {"events", a.events}});
            json j = {{"file", reader.path()},
                      {"kind", "host_trace"},
                      {"complete", reader.file().complete()},
                      {"counts",
                       {{"processes", counts.processes},
                        {"threads", counts.threads},
                        {"channels", counts.channels},
                        {"events", counts.events},
                        {"graphs", counts.graphs},
                        {"series", counts.series},
                        {"samples", counts.samples}}},
                      {"time_span", span ? json{{"start_ns", span->first},
                                                {"end_ns", span->second},
                                                {"duration_ns", span->second - span->first}}
                                         : json(nullptr)},
                      {"threads", std::move(threadsJson)}};
            fmt::print("{}", dumpJson(j));
            return;
        }

        const auto field = [](std::string_view label, std::string_view value) {
            fmt::print("{:<16}{}\n", label, value);
        };
        field("Host trace", fmt::format("{} ({})", reader.path(),
                                        reader.file().complete() ? "complete" : "incomplete"));
        field("Processes", groupDigits(counts.processes));
        field("Threads", groupDigits(counts.threads));
        field("Channels", groupDigits(counts.channels));
        field("Events", groupDigits(counts.events));
        field("Series", fmt::format("{} (in {} graphs), {} samples", groupDigits(counts.series),
                                    groupDigits(counts.graphs), groupDigits(counts.samples)));
        field("Time span",
              span ? fmt::format("{} from {} to {}",
                                 formatDurationNs(static_cast<double>(span->second - span->first)),
                                 formatUtcNs(span->first), formatUtcNs(span->second))
                   : std::string("(empty trace)"));
        if (activity.empty())
            return;
        std::size_t width = 6;
        std::vector<std::string> labels;
        for (const auto& a : activity) {
            labels.push_back(fmt::format("{} ({}) / {} ({})", a.processName, a.pid, a.thread.name,
                                         a.thread.tid));
            width = std::max(width, labels.back().size());
        }
        fmt::print("\nEvents per thread\n  {:<{}}  {:>14}\n", "Thread", width, "Events");
        for (std::size_t i = 0; i < activity.size(); ++i)
            fmt::print("  {:<{}}  {:>14}\n", labels[i], width, groupDigits(activity[i].events));
    });
}

} // namespace tilescope::cli
