#include "ExecutionModel.hpp"

#include "ColumnOverlap.hpp"
#include "core/Background.hpp"
#include "core/ReportSession.hpp"

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
    const std::array<double, ExecutionModel::PhaseCount> cycles = {
        double(row.computeCycles), double(row.exchangeCycles), double(row.syncCycles),
        double(row.streamCycles)};
    forEachOverlappedColumn(cols, begin, end, [&](ExecutionModel::Column& column, double share) {
        for (std::size_t p = 0; p < cycles.size(); ++p)
            column.cycles[p] += cycles[p] * share;
        column.steps += double(row.steps) * share;
    });
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
    : QObject(parent), session_(std::move(session)),
      sideReader_(std::make_shared<ExecutionSideReader>(session_->path())) {}

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

RunFigures ExecutionModel::fetchFigures(const ReportSession& session, ExecutionSideReader& reader,
                                        const report::RunRecord& run) {
    // A scan of every executed step: on the side reader, so frames' windows do not wait for it.
    const auto totals =
        reader.read([&](const report::ProfileReader& r) { return r.runPhaseTotals(run); });
    return RunFigures::from(totals, run, session.target().numTiles(),
                            [](const std::string& phase) { return int(phaseFromName(phase)); });
}

void ExecutionModel::setMode(Mode mode) {
    if (mode == mode_)
        return;
    mode_ = mode;
    fetch_.forgetLatest(); // the next frame's request differs in what it fetches
    emit modeChanged();
}

void ExecutionModel::setTileRange(std::uint32_t firstTile, std::uint32_t count) {
    count = std::clamp<std::uint32_t>(count, 1, kMaxBspTiles);
    if (firstTile == firstTile_ && count == tileCount_)
        return;
    firstTile_ = firstTile;
    tileCount_ = count;
    fetch_.forgetLatest();
    emit modeChanged();
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
            if (filterRequest_.active())
                buildFilter();
        },
        [this](const QString& message) { reportFailure(message); });
}

void ExecutionModel::setCurrentRun(int index) {
    if (index == current_ || index < 0 || index >= int(runs_.size()))
        return;
    current_ = index;
    ++generation_;
    window_ = {};
    fetch_.dropAnswers();
    filter_.reset();
    loadTotals();
    buildFilter();
}

void ExecutionModel::setStepFilter(const StepFilter& filter) {
    if (filter == filterRequest_)
        return;
    filterRequest_ = filter;
    buildFilter();
}

void ExecutionModel::buildFilter() {
    const std::uint64_t generation = ++filterGeneration_;
    const report::RunRecord* current = run();
    if (!filterRequest_.active() || !current) {
        filterBuilding_ = false;
        filter_.reset();
        fetch_.forgetLatest();
        emit filterChanged();
        return;
    }
    filterBuilding_ = true;
    auto side = sideReader_;
    const report::RunRecord r = *current;
    const StepFilter filter = filterRequest_;
    // A scan of the run's executed steps: on the side reader, so frames' windows do not wait.
    runInBackground<std::shared_ptr<const StepFilterIndex>>(
        this,
        [side, r, filter] {
            return side->read([&](const report::ProfileReader& reader) {
                return std::make_shared<const StepFilterIndex>(
                    StepFilterIndex::build(reader, r, filter));
            });
        },
        [this, generation](std::shared_ptr<const StepFilterIndex> index) {
            if (generation != filterGeneration_)
                return;
            filterBuilding_ = false;
            filter_ = std::move(index);
            fetch_.forgetLatest(); // the next frame fetches its columns' matching share
            emit filterChanged();
        },
        [this, generation](const QString& message) {
            if (generation != filterGeneration_)
                return;
            filterBuilding_ = false;
            reportFailure(message);
        });
}

void ExecutionModel::loadTotals() {
    auto session = session_;
    auto side = sideReader_;
    const report::RunRecord r = *run();
    const std::uint64_t generation = generation_;
    struct Totals {
        std::array<std::uint64_t, PhaseCount> phases;
        RunFigures figures;
    };
    runInBackground<Totals>(
        this,
        [session, side, r] {
            return Totals{fetchTotals(*session, r), fetchFigures(*session, *side, r)};
        },
        [this, generation](Totals totals) {
            if (generation != generation_)
                return;
            totals_ = totals.phases;
            figures_ = totals.figures;
            const bool first = !loaded_;
            loaded_ = true;
            if (first)
                emit loadedChanged();
            emit runChanged();
        },
        [this](const QString& message) { reportFailure(message); });
}

ExecutionModel::Window ExecutionModel::fetchWindow(const ReportSession& session,
                                                   const report::RunRecord& run,
                                                   std::uint64_t firstCycle, std::uint64_t endCycle,
                                                   int widthPx, const Layers& layers) {
    Window w;
    w.mode = layers.mode;
    w.firstTile = layers.firstTile;
    w.tileCount = layers.tileCount;
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
    // BSP and per-IPU modes draw, hover and click their own rows: the flat columns would be a
    // second query per window that nothing shows.
    const bool flatColumns = layers.mode == Flat || layers.mode == Flame;
    session.read([&](const report::ProfileReader& reader) {
        // Exact steps while there are only a few per pixel; otherwise the pyramid, so that a
        // window never reads more than a few thousand rows whatever the steps' lengths.
        const double meanStep = run.numSteps ? double(run.totalCycles) / double(run.numSteps) : 1.0;
        if (double(span) / std::max(1.0, meanStep) > kStepsPerColumn * double(n)) {
            w.lodLevel = pyramidLevelForColumns(reader, run, double(span) / double(n));
        }
        // Zoomed out, a flame has its own bars, and pyramid columns name no step to click.
        if (!flatColumns || (layers.mode == Flame && w.lodLevel >= 0))
            return;
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
    if (layers.filter && layers.mode == Flat) { // the only mode that draws matched cycles
        // Exact at any zoom: the index holds the matching executed steps themselves.
        for (Column& col : cols)
            col.matched = layers.filter->matchedCycles(col.firstCycle, col.endCycle);
        w.filtered = true;
    }
    if (flatColumns)
        w.columns = std::move(cols);
    if (layers.mode == Flame && layers.programs)
        session.read([&](const report::ProfileReader& reader) {
            w.flame = FlameRows::fetch(reader, run, firstCycle, endCycle, w.lodLevel,
                                       kMaxStepsPerWindow, *layers.programs);
        });
    else if (layers.mode == Bsp)
        session.read([&](const report::ProfileReader& reader) {
            w.bsp = BspBands::fetch(reader, run, firstCycle, endCycle, layers.firstTile,
                                    layers.tileCount, kMaxBspSteps);
        });
    else if (layers.mode == PerIpu)
        session.read([&](const report::ProfileReader& reader) {
            w.ipu = IpuRows::fetch(reader, run, firstCycle, endCycle, kMaxIpuSteps, widthPx);
        });
    else if (layers.mode == Blocks) // runs are stored in Engine::run order from id 1
        session.read([&](const report::ProfileReader& reader) {
            w.blocks = BlockRows::fetch(reader, run.id - 1, firstCycle, endCycle, kMaxBlocks);
        });
    return w;
}

void ExecutionModel::requestWindow(std::uint64_t firstCycle, std::uint64_t endCycle, int widthPx) {
    const report::RunRecord* r = run();
    if (!r)
        return;
    endCycle = std::min(endCycle, r->totalCycles);
    firstCycle = std::min(firstCycle, endCycle);
    Window request;
    request.mode = mode_;
    request.firstTile = firstTile_;
    request.tileCount = tileCount_;
    request.firstCycle = firstCycle;
    request.endCycle = endCycle;
    request.widthPx = widthPx;
    fetch_.ask(std::move(request));
}

void ExecutionModel::startFetch(const Window& request) {
    if (!run())
        return; // unreachable: requestWindow asks only with a run
    auto session = session_;
    auto programs = programs_;
    auto filter = filter_;
    const report::RunRecord r = *run();
    fetch_.run<Window>(
        this,
        [session, programs, filter, r, request] {
            return fetchWindow(
                *session, r, request.firstCycle, request.endCycle, request.widthPx,
                {request.mode, request.firstTile, request.tileCount, programs.get(), filter.get()});
        },
        [this](Window w) {
            window_ = std::move(w);
            if (!window_.flame.missing.empty())
                resolvePrograms(window_);
            emit windowChanged();
        },
        [this](const QString& message) { reportFailure(message); });
}

void ExecutionModel::resolvePrograms(const Window& w) {
    if (resolving_)
        return; // the window fetched after the running batch lands asks again for what is left
    resolving_ = true;
    auto side = sideReader_;
    auto programs = programs_;
    const std::vector<std::int64_t> ids = w.flame.missing;
    const std::uint64_t generation = generation_;
    runInBackground<bool>(
        this,
        [side, programs, ids] {
            side->read(
                [&](const report::ProfileReader& reader) { programs->resolve(reader, ids); });
            // Fetching again is pointless if nothing could be resolved (a damaged tree).
            return std::any_of(ids.begin(), ids.end(),
                               [&](std::int64_t id) { return programs->knows(id); });
        },
        [this, generation](bool progressed) {
            resolving_ = false;
            if (generation != generation_ || mode_ != Flame || window_.mode != Flame)
                return;
            if (!progressed) { // a damaged tree: the window shown is as complete as it gets
                emit windowChanged();
                return;
            }
            // A fetch in flight is newer than the window shown: it lands after this and, if its
            // programs are still unknown, resolves them. Fetching the shown window again would
            // then replace the newer one with older bounds that later asks repeat and so skip.
            if (!fetch_.idle())
                return;
            // Fetch the window shown again, now that its programs' paths are cached.
            Window request;
            request.mode = Flame;
            request.firstTile = window_.firstTile;
            request.tileCount = window_.tileCount;
            request.firstCycle = window_.firstCycle;
            request.endCycle = window_.endCycle;
            request.widthPx = window_.widthPx;
            fetch_.askUnlessWaiting(std::move(request));
        },
        [this](const QString& message) {
            resolving_ = false;
            reportFailure(message);
        });
}

void ExecutionModel::reportFailure(const QString& message) {
    error_ = message;
    emit failed(message);
}

} // namespace tilescope::gui
