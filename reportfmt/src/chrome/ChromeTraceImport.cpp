// Streaming import of Chrome trace-event JSON into a host trace. While reading, two threads share
// the work: one scans the memory-mapped JSON into batches of events (ChromeTraceScanner), the
// calling thread hands them to the TraceEventImporter, which holds interval events per thread
// (events come in no promised order); at the end the importer nests on a second thread while the
// calling thread writes. Gzip input is inflated into a
// scratch file next to the output first, so that the scanner still reads a mapping.

#include "ChromeTraceImporter.hpp"
#include "ChromeTraceScanner.hpp"
#include "ChunkQueue.hpp"
#include "tilescope/report/ChromeTrace.hpp"
#include "tilescope/report/HostTraceWriter.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/ReportFile.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <fmt/format.h>
#include <fstream>
#include <thread>
#include <vector>
#include <zlib.h>

namespace tilescope::report {
namespace {

using detail::ScannedTraceEvent;
using detail::TraceScalar;

/// A batch of scanned events; its vectors keep their capacity from one use to the next.
struct EventBatch {
    std::vector<ScannedTraceEvent> events; // the first `count` are this batch's
    std::size_t count = 0;
    void clear() { count = 0; }
};

constexpr std::size_t kEventsPerBatch = 4096;

void scanInto(detail::ChromeTraceScanner& scanner, detail::ChunkQueue<EventBatch>& queue,
              const std::string& path) {
    try {
        for (bool more = true; more;) {
            EventBatch b = queue.spare();
            while (b.count < kEventsPerBatch) {
                if (b.count == b.events.size())
                    b.events.emplace_back();
                if (!scanner.next(b.events[b.count])) {
                    more = false;
                    break;
                }
                ++b.count;
            }
            queue.push(std::move(b));
        }
        // Checked after the last events are handed over, so errors come in input order.
        if (!scanner.foundEventArray())
            throw ReportError(path,
                              fmt::format("at byte {}: no trace events: expected a JSON array of "
                                          "events or an object with \"traceEvents\"",
                                          scanner.offset()));
        scanner.finish();
        queue.close();
    } catch (const detail::ChunkQueueCancelled&) {
        queue.close(); // the holding side failed and reports its own error
    } catch (...) {
        queue.close(std::current_exception());
    }
}

/// True when the file starts with the gzip magic bytes.
bool isGzip(const std::filesystem::path& input) {
    unsigned char magic[2] = {0, 0};
    std::ifstream in(input, std::ios::binary);
    in.read(reinterpret_cast<char*>(magic), 2);
    return in.gcount() == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

/// Inflates a gzip file (every member, as gzip(1) does) into `to`.
void gunzip(const std::filesystem::path& from, const std::filesystem::path& to) {
    gzFile in = gzopen(from.c_str(), "rb");
    if (!in)
        throw ReportError(from.string(), "cannot open");
    std::FILE* out = std::fopen(to.c_str(), "wb");
    if (!out) {
        gzclose(in);
        throw ReportError(to.string(), "cannot write the inflated trace");
    }
    gzbuffer(in, 1 << 18);
    std::vector<char> buffer(1 << 18);
    std::string error;
    for (;;) {
        const int n = gzread(in, buffer.data(), static_cast<unsigned>(buffer.size()));
        if (n < 0) {
            int code = 0;
            const char* message = gzerror(in, &code);
            // A stream that stops early (a tracer killed while compressing) keeps what was
            // inflated: the scanner then takes the JSON as cut off. Corrupt data is refused.
            if (code != Z_BUF_ERROR)
                error = message;
            break;
        }
        if (n == 0)
            break;
        if (std::fwrite(buffer.data(), 1, static_cast<std::size_t>(n), out) !=
            static_cast<std::size_t>(n)) {
            error = "cannot write the inflated trace";
            break;
        }
    }
    gzclose(in);
    if (std::fclose(out) != 0 && error.empty())
        error = "cannot write the inflated trace";
    if (!error.empty())
        throw ReportError(from.string(), "gzip: " + error);
}

/// 1-based line and column (in bytes) of `offset`.
std::pair<std::size_t, std::size_t> lineAndColumn(const char* data, std::size_t offset) {
    std::size_t line = 1, lineStart = 0;
    for (std::size_t i = 0; i < offset; ++i)
        if (data[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    return {line, offset - lineStart + 1};
}

ChromeTraceStats importMapped(detail::MappedFile& file, const std::string& inputName,
                              const std::string& shownName, const std::filesystem::path& partial,
                              const ChromeTraceImportOptions& options) {
    HostTraceWriterOptions writerOptions;
    writerOptions.scratchFile = true; // renamed into place only once complete, deleted otherwise
    HostTraceWriter writer(partial, writerOptions);
    writer.setMetadata("imported_from", shownName);
    detail::TraceEventImporter importer(writer, inputName,
                                        options.maxHeldEvents > 0
                                            ? static_cast<std::size_t>(options.maxHeldEvents)
                                            : std::size_t{8} << 20,
                                        !options.discardEventRows);
    detail::ChromeTraceScanner scanner(file, inputName);
    detail::ChunkQueue<EventBatch> batches(2);
    std::thread scanning([&] { scanInto(scanner, batches, inputName); });
    try {
        // Slots are resolved here, not on the scanning thread: scanning is the longer of the two
        // while events arrive, this thread waits on it.
        detail::SlotResolver slots;
        while (auto b = batches.pop()) {
            for (std::size_t i = 0; i < b->count; ++i)
                importer.add(b->events[i], slots.resolve(b->events[i]));
            batches.recycle(std::move(*b));
        }
    } catch (...) {
        batches.cancel();
        scanning.join();
        throw;
    }
    scanning.join();
    if (auto error = batches.error())
        std::rethrow_exception(error);
    ChromeTraceStats stats;
    if (scanner.trailingCommas() > 0)
        importer.noteDocumentRepair(scanner.trailingCommaAt(),
                                    "a comma before the closing ']' of the event array");
    if (scanner.endedEarly())
        importer.noteDocumentRepair(scanner.endedEarlyAt(),
                                    scanner.droppedPartialEvent()
                                        ? "the file is cut off inside this event (event dropped)"
                                        : "the file is cut off here (no closing ']' or '}')");
    importer.finish();
    stats = importer.stats;
    stats.repairs.trailingCommas = scanner.trailingCommas();
    stats.repairs.cutOff = scanner.endedEarly() ? 1 : 0;
    stats.repairs.partialEvents = scanner.droppedPartialEvent() ? 1 : 0;
    stats.bytes = file.size();
    if (options.strict && stats.repairs.total() > 0) {
        const auto& first = *importer.firstRepair();
        const auto [line, column] = lineAndColumn(file.data(), first.offset);
        throw ReportError(inputName,
                          fmt::format("refused (--strict): line {}, column {}{}: {}", line, column,
                                      first.thread.empty() ? "" : ", thread " + first.thread,
                                      first.why));
    }
    const auto& r = stats.repairs;
    writer.setMetadata("import_summary", describeImport(stats));
    for (const auto& [key, value] : {std::pair{"import_events", stats.events},
                                     {"import_samples", stats.samples},
                                     {"import_reordered", r.reordered},
                                     {"import_unmatched_end_dropped", r.unmatchedEnds},
                                     {"import_unfinished_begin_closed", r.unfinished},
                                     {"import_overlapping_slices", r.overlapping},
                                     {"import_trailing_commas", r.trailingCommas},
                                     {"import_cut_off", r.cutOff},
                                     {"import_partial_events_dropped", r.partialEvents},
                                     {"import_dangling_flows_dropped", r.danglingFlows},
                                     {"import_untimed_dropped", r.untimed},
                                     {"import_async_slices", stats.asyncSlices},
                                     {"import_flows", stats.flows}})
        writer.setMetadata(key, std::to_string(value));
    writer.close();
    return stats;
}

void removePartial(const std::filesystem::path& partial) {
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"})
        std::filesystem::remove(partial.string() + suffix, ec);
}

} // namespace

std::string describeImport(const ChromeTraceStats& s) {
    const auto& r = s.repairs;
    std::string line = fmt::format("imported {} events", s.events);
    if (s.samples > 0)
        line += fmt::format(" and {} counter sample{}", s.samples, s.samples == 1 ? "" : "s");
    line += fmt::format("; reordered {}; dropped {} unmatched E; closed {} unfinished B; {} "
                        "overlapping slices on own rows",
                        r.reordered, r.unmatchedEnds, r.unfinished, r.overlapping);
    if (r.trailingCommas > 0)
        line += fmt::format("; skipped {} trailing comma{}", r.trailingCommas,
                            r.trailingCommas == 1 ? "" : "s");
    if (s.asyncSlices > 0 || s.flows > 0)
        line += fmt::format("; {} async slices, {} flow arrows", s.asyncSlices, s.flows);
    if (r.danglingFlows > 0)
        line += fmt::format("; dropped {} flows with one end", r.danglingFlows);
    if (r.untimed > 0)
        line += fmt::format("; dropped {} async or flow event{} without a time", r.untimed,
                            r.untimed == 1 ? "" : "s");
    if (r.cutOff > 0)
        line += r.partialEvents > 0 ? "; file cut off, dropped 1 partial event"
                                    : "; file cut off (no closing bracket)";
    return line;
}

std::vector<std::pair<std::string, std::string>> chromeImportDetails(const ReportFile& file) {
    std::vector<std::pair<std::string, std::string>> lines;
    const std::string from = file.metadataValue("imported_from");
    if (from.empty())
        return lines;
    lines.emplace_back("Imported from", from);
    const std::string summary = file.metadataValue("import_summary");
    if (!summary.empty()) // files imported before repairs were counted have none
        lines.emplace_back("Import", summary);
    for (const auto& [key, label] :
         {std::pair{"import_events", "Events imported"},
          {"import_samples", "Counter samples imported"},
          {"import_reordered", "Events reordered"},
          {"import_unmatched_end_dropped", "Unmatched E dropped"},
          {"import_unfinished_begin_closed", "Unfinished B closed"},
          {"import_overlapping_slices", "Overlapping slices on own rows"},
          {"import_trailing_commas", "Trailing commas skipped"},
          {"import_cut_off", "File cut off"},
          {"import_partial_events_dropped", "Partial events dropped"},
          {"import_dangling_flows_dropped", "Flows with one end dropped"},
          {"import_untimed_dropped", "Async or flow events without a time dropped"},
          {"import_async_slices", "Async slices imported"},
          {"import_flows", "Flow arrows imported"}}) {
        const std::string value = file.metadataValue(key);
        if (!value.empty())
            lines.emplace_back(label, value);
    }
    return lines;
}

ChromeTraceStats importChromeTrace(const std::filesystem::path& input,
                                   const std::filesystem::path& output,
                                   const ChromeTraceImportOptions& options) {
    // Written next to the output and renamed at the end: a failed import leaves nothing behind.
    const std::filesystem::path partial = output.string() + ".partial";
    const std::filesystem::path inflated = output.string() + ".partial-json";
    ChromeTraceStats stats;
    try {
        std::filesystem::path json = input;
        if (isGzip(input)) {
            gunzip(input, inflated);
            if (std::filesystem::file_size(inflated) == 0)
                throw ReportError(input.string(),
                                  "gzip: the stream holds no data (corrupt or empty)");
            json = inflated;
        }
        detail::MappedFile file(json);
        stats = importMapped(file, input.string(), input.filename().string(), partial, options);
        stats.bytes = std::filesystem::file_size(input);
    } catch (...) {
        removePartial(partial);
        std::error_code ec;
        std::filesystem::remove(inflated, ec);
        throw;
    }
    std::error_code ec;
    std::filesystem::remove(inflated, ec);
    std::filesystem::rename(partial, output, ec);
    if (ec)
        throw ReportError(output.string(), "cannot write: " + ec.message());
    return stats;
}

} // namespace tilescope::report
