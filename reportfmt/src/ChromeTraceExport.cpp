// Export of a host trace as Chrome trace-event JSON, streamed row by row from SQLite.

#include "Sqlite.hpp"
#include "tilescope/report/ChromeTrace.hpp"
#include "tilescope/report/HostTraceTypes.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/ReportFile.hpp"

#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace tilescope::report {
namespace {

// Nanoseconds as microseconds with three decimals: exact, whatever the magnitude.
std::string micros(std::int64_t ns) {
    const bool negative = ns < 0;
    const std::uint64_t a = negative ? 0 - static_cast<std::uint64_t>(ns) : ns;
    return fmt::format("{}{}.{:03}", negative ? "-" : "", a / 1000, a % 1000);
}

std::string quoted(const std::string& s) {
    return nlohmann::json(s).dump();
}

/// Buffered output that fails loudly.
class JsonOut {
public:
    explicit JsonOut(const std::filesystem::path& path) : path_(path.string()) {
        f_ = std::fopen(path_.c_str(), "wb");
        if (!f_)
            throw ReportError(path_, "cannot write: " + std::string(std::strerror(errno)));
        std::setvbuf(f_, nullptr, _IOFBF, 1 << 20);
    }
    ~JsonOut() {
        if (f_)
            std::fclose(f_);
    }
    void event(const std::string& json) {
        write(first_ ? "\n" : ",\n");
        first_ = false;
        write(json);
    }
    void write(const std::string& s) {
        if (std::fwrite(s.data(), 1, s.size(), f_) != s.size())
            throw ReportError(path_, "write failed: " + std::string(std::strerror(errno)));
        bytes_ += s.size();
    }
    void close() {
        if (std::fclose(f_) != 0) {
            f_ = nullptr;
            throw ReportError(path_, "write failed: " + std::string(std::strerror(errno)));
        }
        f_ = nullptr;
    }
    std::uint64_t bytes() const { return bytes_; }

private:
    std::string path_;
    std::FILE* f_ = nullptr;
    bool first_ = true;
    std::uint64_t bytes_ = 0;
};

} // namespace

ChromeTraceStats exportChromeTrace(const std::filesystem::path& input,
                                   const std::filesystem::path& output) {
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
        // importer needs to rebuild the nesting.
        auto events = db.prepare(
            "SELECT e.kind, e.start_ns, e.end_ns, p.pid, t.tid, n.text, cn.text FROM event e "
            "JOIN thread t ON t.id = e.thread_id JOIN process p ON p.id = t.process_id "
            "JOIN name n ON n.id = e.name_id JOIN channel c ON c.id = e.channel_id "
            "JOIN name cn ON cn.id = c.name_id ORDER BY e.thread_id, e.start_ns, e.depth");
        while (events.step()) {
            const auto kind = static_cast<EventKind>(events.int64(0));
            const std::int64_t start = events.int64(1);
            const std::string common = fmt::format(
                R"("name":{},"cat":{},"pid":{},"tid":{},"ts":{})", quoted(events.text(5)),
                quoted(events.text(6)), events.int64(3), events.int64(4), micros(start));
            switch (kind) {
            case EventKind::Complete:
                out.event(fmt::format(R"({{"ph":"X",{},"dur":{}}})", common,
                                      micros(events.int64(2) - start)));
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
