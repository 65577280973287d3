#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::report {

/// What an import had to repair to take a file as producers write it. None of these is a
/// refusal; `ChromeTraceImportOptions::strict` turns any of them into one.
struct ChromeTraceRepairs {
    std::uint64_t reordered = 0;      ///< events that came before an earlier one of their thread
    std::uint64_t unmatchedEnds = 0;  ///< E events with no open B on their thread, dropped
    std::uint64_t unfinished = 0;     ///< B events never closed, kept as unfinished
    std::uint64_t overlapping = 0;    ///< slices overlapping without nesting, on their own rows
    std::uint64_t trailingCommas = 0; ///< a comma before the event array's closing bracket
    std::uint64_t cutOff = 0;         ///< 1 when the document stops before its end
    std::uint64_t partialEvents = 0;  ///< the event the cut fell in, dropped
    std::uint64_t danglingFlows = 0;  ///< flows with a single point (no arrow), dropped
    /// Async and flow events whose "ts" is null, missing or not a number (Chrome writes async
    /// ends with "ts": null), dropped: their slice closes as unfinished, their flow loses a point.
    std::uint64_t untimed = 0;

    std::uint64_t total() const {
        return reordered + unmatchedEnds + unfinished + overlapping + trailingCommas + cutOff +
               partialEvents + danglingFlows + untimed;
    }
};

/// Figures of one import or export.
struct ChromeTraceStats {
    std::uint64_t events = 0;      ///< events written (complete, instant, unfinished)
    std::uint64_t samples = 0;     ///< counter samples written
    std::uint64_t heatmapBins = 0; ///< heatmap counter events written (export; one per time bin)
    std::uint64_t asyncSlices = 0; ///< async slices written (b/e/n, S/T/F), on async tracks
    std::uint64_t flows = 0;       ///< flow arrows written (s/t/f)
    std::uint64_t bytes = 0;       ///< JSON bytes read or written
    ChromeTraceRepairs repairs;    ///< import only
};

/// The one-line account of an import and its repairs, as the CLI prints it and the .pvti keeps
/// it (metadata "import_summary"): "imported N events; reordered M; dropped K unmatched E; ...".
std::string describeImport(const ChromeTraceStats& stats);

class ReportFile;

/// What a Chrome trace import recorded in a host trace's metadata, as (label, value) lines for a
/// file's details: where from, the summary, and each repair count. Empty when the file was not
/// imported from a Chrome trace.
std::vector<std::pair<std::string, std::string>> chromeImportDetails(const ReportFile& file);

/// How strictly to import.
struct ChromeTraceImportOptions {
    /// Refuse any file that needed a repair, naming its first such event (line, column, thread)
    /// and the reason, instead of repairing and counting.
    bool strict = false;
    /// Interval events held in memory (32 bytes each) before every thread's are sorted and
    /// spilled as runs to a scratch file, merged at the end; 0: 8 M (256 MB).
    std::uint64_t maxHeldEvents = 0;
    /// Diagnostic for benchmarks only: scan, order and nest every event but write no event rows
    /// (the output holds processes, threads, names and metadata), so that the import's own work
    /// can be timed apart from the writer's.
    bool discardEventRows = false;
};

/// Imports a Chrome trace-event JSON file, plain or gzip-compressed (.json.gz), into a host-trace
/// file. Takes the array form and the object form ("traceEvents"; other keys such as
/// "displayTimeUnit", "metadata" and "systemTraceEvents" are skipped). Phases: B/E (paired per
/// thread in time order), X (complete), i/I (instant), C (counters: one graph per name, one
/// series per argument), M (process_name, thread_name), async b/e/n and S/T/F (async tracks per
/// process, category and id), flows s/t/f (arrows between consecutive points); other phases are
/// skipped. Timestamps are
/// microseconds (numbers or numeric strings), fractions kept to the nanosecond. Events may come
/// in any order: each thread's events are sorted by time (longer slices first at equal starts)
/// before nesting. Repairs, counted in `stats.repairs` and stored in the file's metadata: events
/// reordered, E without an open B dropped, B never closed kept as unfinished, slices that
/// overlap without nesting placed on their own depth rows, a trailing comma, a document cut off
/// (its partial last event dropped), a flow with a single point dropped, an async or flow event
/// without a usable "ts" dropped. A gzip stream cut off is
/// a cut-off document. Memory: about 32 bytes per interval event held, at most
/// `options.maxHeldEvents`; beyond, sorted runs go to a scratch file (external merge). Refused with
/// a ReportError naming the input, the byte offset and the problem: malformed JSON, no event array,
/// an event without "ph", a field of the wrong type, a negative duration, a timestamp out of range;
/// with `options.strict`, any repair. On any error nothing is left at `output`.
ChromeTraceStats importChromeTrace(const std::filesystem::path& input,
                                   const std::filesystem::path& output,
                                   const ChromeTraceImportOptions& options = {});

/// Writes a host-trace file as Chrome trace-event JSON (object form) that Perfetto and
/// chrome://tracing open: M events name processes and threads, complete events become X,
/// instants i, unfinished events B, samples C, heatmaps C with one series per bucket (the values
/// added per time bin, at most 1000 bins per heatmap). Importing the result gives back the same
/// events, names, nesting and timestamps. `profiles`: profile reports of the same run to join on
/// the same time axis (the joint view): each becomes a process "device: FILE" with a thread of
/// engine runs and a thread of executed steps, placed at each run's host start with cycles
/// converted at the target's clock; a step's category is its BSP phase and its args hold its
/// cycles.
ChromeTraceStats exportChromeTrace(const std::filesystem::path& input,
                                   const std::filesystem::path& output,
                                   const std::vector<std::filesystem::path>& profiles = {});

} // namespace tilescope::report
