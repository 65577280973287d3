#pragma once

#include <cstdint>
#include <filesystem>

namespace tilescope::report {

/// Figures of one import or export.
struct ChromeTraceStats {
    std::uint64_t events = 0;  ///< events written (complete, instant, unfinished)
    std::uint64_t samples = 0; ///< counter samples written
    std::uint64_t bytes = 0;   ///< JSON bytes read or written
};

/// Imports a Chrome trace-event JSON file (the array form, whose closing bracket may be missing,
/// or the object form with "traceEvents" and "displayTimeUnit") into a host-trace file. Phases:
/// B/E (paired per thread), X (complete), i/I (instant), C (counters: one graph per name, one
/// series per argument), M (process_name, thread_name). Timestamps are microseconds, fractions
/// kept to the nanosecond. Events of a thread must come in time order, as the format's B/E pairs
/// imply; nesting depth follows from the order. The input is streamed: memory does not grow with
/// its size. On any error nothing is left at `output`, and the ReportError names the input, the
/// byte offset and the problem (malformed JSON, a wrong type, an E without a B, a timestamp out
/// of range, events out of order).
ChromeTraceStats importChromeTrace(const std::filesystem::path& input,
                                   const std::filesystem::path& output);

/// Writes a host-trace file as Chrome trace-event JSON (object form) that Perfetto and
/// chrome://tracing open: M events name processes and threads, complete events become X,
/// instants i, unfinished events B, samples C. Importing the result gives back the same events,
/// names, nesting and timestamps.
ChromeTraceStats exportChromeTrace(const std::filesystem::path& input,
                                   const std::filesystem::path& output);

} // namespace tilescope::report
