#include "ExecutionIpuRows.hpp"

#include "ColumnOverlap.hpp"

#include <algorithm>
#include <cmath>

namespace tilescope::gui {
namespace {

IpuRows fetchSteps(IpuRows rows, const report::ProfileReader& reader, const report::RunRecord& run,
                   const std::vector<report::RunStepSpan>& spans) {
    const auto cycles = reader.runStepIpuCycles(run, spans.front().seq, std::int64_t(spans.size()));
    const bool allRecorded = appendExecutedSteps(rows.steps, spans, cycles, std::size_t(rows.ipus),
                                                 &IpuRows::Step::ipuCycles);
    rows.recorded = rows.recorded && allRecorded;
    return rows;
}

/// Adds a bucket covering cycles [begin, end) to the columns it overlaps, in proportion to the
/// overlap (as the flat chart spreads run_lod buckets), so no column is left with a gap.
void spread(IpuRows& rows, double begin, double end, const report::RunIpuLodRow& bucket) {
    const std::size_t n = std::min<std::size_t>(bucket.busyCycles.size(), rows.ipus);
    forEachOverlappedColumn(rows.columns, begin, end, [&](auto& column, double share) {
        column.steps += double(bucket.steps) * share;
        double* busy = rows.busy.data() + std::size_t(&column - rows.columns.data()) * rows.ipus;
        for (std::size_t i = 0; i < n; ++i)
            busy[i] += double(bucket.busyCycles[i]) * share;
    });
}

} // namespace

std::int64_t pyramidLevelForColumns(const report::ProfileReader& reader,
                                    const report::RunRecord& run, double cyclesPerColumn) {
    if (const std::int64_t level = reader.runLodLevelFor(run, cyclesPerColumn); level >= 0)
        return level;
    // Columns narrower than the finest stored buckets: the finest, shared out between columns.
    double width = double(reader.runLodBaseCycles());
    for (int k = 0; k < 40 && width <= 4.0 * double(std::max<std::uint64_t>(1, run.totalCycles));
         ++k, width *= 4)
        if (const std::int64_t level = reader.runLodLevelFor(run, width); level >= 0)
            return level;
    return -1;
}

double IpuRows::busyShare(std::size_t column, std::uint32_t ipu) const {
    const Column& c = columns[column];
    const double width = double(c.endCycle - c.firstCycle);
    return width > 0 ? std::clamp(busyCycles(column, ipu) / width, 0.0, 1.0) : 0.0;
}

IpuRows IpuRows::fetch(const report::ProfileReader& reader, const report::RunRecord& run,
                       std::uint64_t firstCycle, std::uint64_t endCycle, std::int64_t maxSteps,
                       int widthPx) {
    IpuRows rows;
    rows.ipus = reader.target().numIpus;
    if (endCycle <= firstCycle || rows.ipus == 0 || widthPx <= 0)
        return rows;
    if (run.numSteps == 0)
        return rows;
    // Two binary searches count the window's steps, so a zoomed-out window scans no steps.
    const std::int64_t inWindow =
        reader.runStepAtCycle(run, endCycle - 1) - reader.runStepAtCycle(run, firstCycle) + 1;
    if (inWindow <= maxSteps) {
        const auto spans = reader.runStepSpans(run, firstCycle, endCycle, maxSteps + 1);
        if (std::int64_t(spans.size()) <= maxSteps)
            return spans.empty() ? rows : fetchSteps(std::move(rows), reader, run, spans);
    }

    const std::uint64_t span = endCycle - firstCycle;
    const auto n = std::size_t(std::min<std::uint64_t>(span, std::uint64_t(widthPx)));
    // About one bucket per column (a half to two), not the flat chart's one to four: each bucket
    // carries a figure per IPU, so reading and spreading them is what a zoomed-out frame costs.
    rows.lodLevel = pyramidLevelForColumns(reader, run, 2.0 * double(span) / double(n));
    if (rows.lodLevel < 0) {
        rows.tooManySteps = true;
        return rows;
    }
    rows.columns.resize(n);
    for (std::size_t c = 0; c < n; ++c) { // the flat chart's columns
        rows.columns[c].firstCycle =
            firstCycle + std::uint64_t(double(c) / double(n) * double(span));
        rows.columns[c].endCycle =
            firstCycle + std::uint64_t(double(c + 1) / double(n) * double(span));
    }
    rows.busy.assign(n * rows.ipus, 0.0);
    const double width = double(reader.runLodBaseCycles()) * std::pow(4.0, double(rows.lodLevel));
    for (const auto& bucket : reader.runIpuLod(run, rows.lodLevel, firstCycle, endCycle - 1)) {
        if (bucket.busyCycles.empty())
            rows.recorded = false;
        const double begin = double(bucket.bucket) * width;
        spread(rows, begin, std::min(begin + width, double(run.totalCycles)), bucket);
    }
    return rows;
}

} // namespace tilescope::gui
