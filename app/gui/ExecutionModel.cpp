#include "ExecutionModel.hpp"

#include "Background.hpp"
#include "ReportSession.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tilescope::gui {
namespace {

constexpr std::int64_t kMaxStepsPerWindow = 200000; // only without any pyramid level
constexpr double kStepsPerColumn = 4;               // more than this per pixel: use the pyramid

/// The column of a window that cycle `c` falls in.
std::size_t columnOf(std::uint64_t c, std::uint64_t first, std::uint64_t span, std::size_t n) {
    const std::uint64_t at = std::clamp(c, first, first + span - 1) - first;
    return std::min<std::size_t>(n - 1, std::size_t(double(at) / double(span) * double(n)));
}

/// Adds a pyramid bucket covering cycles [begin, end) to the columns it overlaps, in proportion
/// to the overlap, so buckets wider or narrower than a pixel both draw without gaps.
void spread(std::vector<ExecutionModel::Column>& cols, double begin, double end,
            const report::RunLodRow& row) {
    if (end <= begin || cols.empty())
        return;
    const std::array<double, ExecutionModel::PhaseCount> cycles = {
        double(row.computeCycles), double(row.exchangeCycles), double(row.syncCycles),
        double(row.streamCycles)};
    auto it = std::upper_bound(cols.begin(), cols.end(), begin,
                               [](double b, const auto& c) { return b < double(c.firstCycle); });
    if (it != cols.begin())
        --it;
    for (; it != cols.end() && double(it->firstCycle) < end; ++it) {
        const double overlap =
            std::min(double(it->endCycle), end) - std::max(double(it->firstCycle), begin);
        if (overlap <= 0)
            continue;
        const double share = overlap / (end - begin);
        for (std::size_t p = 0; p < cycles.size(); ++p)
            it->cycles[p] += cycles[p] * share;
        it->steps += double(row.steps) * share;
    }
}

/// The finest pyramid level stored for a run (-1: none).
std::int64_t finestLevel(const report::ProfileReader& reader, const report::RunRecord& run) {
    double width = double(reader.runLodBaseCycles());
    for (int k = 0; k < 40 && width <= 4.0 * double(std::max<std::uint64_t>(1, run.totalCycles));
         ++k, width *= 4)
        if (const std::int64_t level = reader.runLodLevelFor(run, width); level >= 0)
            return level;
    return -1;
}

} // namespace

ExecutionModel::Phase ExecutionModel::phaseFromName(const std::string& name) {
    if (name == "exchange")
        return Exchange;
    if (name == "sync")
        return Sync;
    if (name == "stream")
        return Stream;
    return Compute;
}

QString ExecutionModel::phaseName(int phase) {
    switch (phase) {
    case Compute:
        return tr("Compute");
    case Exchange:
        return tr("Exchange");
    case Sync:
        return tr("Sync");
    case Stream:
        return tr("Stream copy");
    default:
        return {};
    }
}

ExecutionModel::ExecutionModel(std::shared_ptr<ReportSession> session, QObject* parent)
    : QObject(parent), session_(std::move(session)) {}

const report::RunRecord* ExecutionModel::run() const {
    return current_ >= 0 && current_ < int(runs_.size()) ? &runs_[std::size_t(current_)] : nullptr;
}

std::array<std::uint64_t, ExecutionModel::PhaseCount>
ExecutionModel::fetchTotals(const ReportSession& session, const report::RunRecord& run) {
    std::array<std::uint64_t, PhaseCount> t{};
    session.read([&](const report::ProfileReader& reader) {
        // The coarsest level covers the run in a few rows; short runs have none: sum the steps.
        const std::int64_t level =
            reader.runLodLevelFor(run, double(std::max<std::uint64_t>(1, run.totalCycles)));
        if (level >= 0) {
            for (const auto& row : reader.runLod(run, level, 0, run.totalCycles)) {
                t[Compute] += row.computeCycles;
                t[Exchange] += row.exchangeCycles;
                t[Sync] += row.syncCycles;
                t[Stream] += row.streamCycles;
            }
        } else {
            for (const auto& s :
                 reader.runStepSpans(run, 0, std::numeric_limits<std::uint64_t>::max(),
                                     std::numeric_limits<std::int64_t>::max()))
                t[phaseFromName(s.phase)] += s.cycles;
        }
    });
    return t;
}

void ExecutionModel::load() {
    auto session = session_;
    runInBackground<std::vector<report::RunRecord>>(
        this, [session] { return session->read([](const auto& reader) { return reader.runs(); }); },
        [this](std::vector<report::RunRecord> runs) {
            runs_ = std::move(runs);
            current_ = 0;
            if (runs_.empty()) {
                loaded_ = true;
                emit loadedChanged();
                return;
            }
            loadTotals();
        },
        [this](const QString& message) {
            error_ = message;
            emit failed(message);
        });
}

void ExecutionModel::setCurrentRun(int index) {
    if (index == current_ || index < 0 || index >= int(runs_.size()))
        return;
    current_ = index;
    ++generation_;
    window_ = {};
    pending_.reset();
    requested_.reset();
    loadTotals();
}

void ExecutionModel::loadTotals() {
    auto session = session_;
    const report::RunRecord r = *run();
    const std::uint64_t generation = generation_;
    runInBackground<std::array<std::uint64_t, PhaseCount>>(
        this, [session, r] { return fetchTotals(*session, r); },
        [this, generation](std::array<std::uint64_t, PhaseCount> totals) {
            if (generation != generation_)
                return;
            totals_ = totals;
            const bool first = !loaded_;
            loaded_ = true;
            if (first)
                emit loadedChanged();
            emit runChanged();
        },
        [this](const QString& message) {
            error_ = message;
            emit failed(message);
        });
}

ExecutionModel::Window ExecutionModel::fetchWindow(const ReportSession& session,
                                                   const report::RunRecord& run,
                                                   std::uint64_t firstCycle, std::uint64_t endCycle,
                                                   int widthPx) {
    Window w;
    w.firstCycle = firstCycle;
    w.endCycle = endCycle;
    w.widthPx = widthPx;
    if (endCycle <= firstCycle || widthPx <= 0)
        return w;
    const std::uint64_t span = endCycle - firstCycle;
    const auto n = std::size_t(std::min<std::uint64_t>(span, std::uint64_t(widthPx)));
    std::vector<Column> cols(n);
    for (std::size_t c = 0; c < n; ++c) {
        cols[c].firstCycle = firstCycle + std::uint64_t(double(c) / double(n) * double(span));
        cols[c].endCycle = firstCycle + std::uint64_t(double(c + 1) / double(n) * double(span));
    }
    session.read([&](const report::ProfileReader& reader) {
        // Exact steps while there are only a few per pixel; otherwise the pyramid, so that a
        // window never reads more than a few thousand rows whatever the steps' lengths.
        const double meanStep = run.numSteps ? double(run.totalCycles) / double(run.numSteps) : 1.0;
        if (double(span) / std::max(1.0, meanStep) > kStepsPerColumn * double(n)) {
            w.lodLevel = reader.runLodLevelFor(run, double(span) / double(n));
            if (w.lodLevel < 0)
                w.lodLevel = finestLevel(reader, run);
        }
        if (w.lodLevel >= 0) {
            const double width =
                double(reader.runLodBaseCycles()) * std::pow(4.0, double(w.lodLevel));
            for (const auto& row : reader.runLod(run, w.lodLevel, firstCycle, endCycle - 1)) {
                const double begin = double(row.bucket) * width;
                const double end = std::min(begin + width, double(run.totalCycles));
                spread(cols, begin, end, row);
            }
            return;
        }
        // Zoomed in: a step adds the part of it inside each column it overlaps, so a long step
        // fills its columns and a column shows how its cycles split between steps' phases.
        for (const auto& s : reader.runStepSpans(run, firstCycle, endCycle, kMaxStepsPerWindow)) {
            const std::uint64_t end = s.startCycle + s.cycles;
            const Phase phase = phaseFromName(s.phase);
            for (std::size_t c = columnOf(s.startCycle, firstCycle, span, n); c < n; ++c) {
                Column& col = cols[c];
                if (col.firstCycle >= end)
                    break;
                const std::uint64_t lo = std::max(col.firstCycle, s.startCycle);
                const std::uint64_t hi = std::min(col.endCycle, end);
                if (hi <= lo)
                    continue;
                col.cycles[phase] += double(hi - lo);
                col.steps += 1;
                if (!col.step || s.cycles > col.step->cycles)
                    col.step = s; // the longest step in the column names it
            }
        }
    });
    w.columns = std::move(cols);
    return w;
}

void ExecutionModel::requestWindow(std::uint64_t firstCycle, std::uint64_t endCycle, int widthPx) {
    const report::RunRecord* r = run();
    if (!r)
        return;
    endCycle = std::min(endCycle, r->totalCycles);
    firstCycle = std::min(firstCycle, endCycle);
    if (requested_ && requested_->firstCycle == firstCycle && requested_->endCycle == endCycle &&
        requested_->widthPx == widthPx)
        return;
    Window request;
    request.firstCycle = firstCycle;
    request.endCycle = endCycle;
    request.widthPx = widthPx;
    requested_ = request;
    pending_ = request;
    if (!fetching_)
        startNext();
}

void ExecutionModel::startNext() {
    if (!pending_ || !run())
        return;
    const Window request = *pending_;
    pending_.reset();
    fetching_ = true;
    auto session = session_;
    const report::RunRecord r = *run();
    const std::uint64_t generation = generation_;
    runInBackground<Window>(
        this,
        [session, r, request] {
            return fetchWindow(*session, r, request.firstCycle, request.endCycle, request.widthPx);
        },
        [this, generation](Window w) {
            fetching_ = false;
            if (generation == generation_) {
                window_ = std::move(w);
                emit windowChanged();
            }
            startNext();
        },
        [this](const QString& message) {
            fetching_ = false;
            error_ = message;
            emit failed(message);
        });
}

} // namespace tilescope::gui
