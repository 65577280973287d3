#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

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
/// `profiles`: profile reports of the same run to join on the same time axis (the joint view):
/// each becomes a process "device: FILE" with a thread of engine runs and a thread of executed
/// steps, placed at each run's host start with cycles converted at the target's clock; a step's
/// category is its BSP phase and its args hold its cycles.
ChromeTraceStats exportChromeTrace(const std::filesystem::path& input,
                                   const std::filesystem::path& output,
                                   const std::vector<std::filesystem::path>& profiles = {});

} // namespace tilescope::report
