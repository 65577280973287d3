#include "LivenessModel.hpp"

#include "core/Background.hpp"
#include "core/ReportSession.hpp"

#include <QObject>
#include <algorithm>

namespace tilescope::gui {
namespace {

constexpr double kStepsPerColumn = 4; // more steps than this per pixel: use the pyramid

/// The pixel column of `step` in a window of `span` steps from `first` over `n` columns.
std::size_t columnOf(std::int64_t step, std::int64_t first, std::int64_t span, std::size_t n) {
    const std::int64_t at = std::clamp(step, first, first + span - 1);
    return std::size_t(
        std::clamp((at - first) * std::int64_t(n) / span, std::int64_t(0), std::int64_t(n) - 1));
}

/// Adds one source row (a step or a pyramid bucket) into the pixel column it starts in.
void addToColumns(std::vector<LivenessModel::Point>& cols, std::int64_t first, std::int64_t end,
                  std::int64_t rowFirst, std::int64_t rowLast, double lo, double hi) {
    auto& p = cols[columnOf(rowFirst, first, end - first, cols.size())];
    if (p.lastStep < p.firstStep) { // still empty
        p = {rowFirst, rowLast, lo, hi};
        return;
    }
    p.firstStep = std::min(p.firstStep, rowFirst);
    p.lastStep = std::max(p.lastStep, rowLast);
    p.minNotAlwaysLive = std::min(p.minNotAlwaysLive, lo);
    p.maxNotAlwaysLive = std::max(p.maxNotAlwaysLive, hi);
}

} // namespace

LivenessModel::LivenessModel(std::shared_ptr<ReportSession> session, QObject* parent)
    : QObject(parent), session_(std::move(session)) {}

void LivenessModel::load() {
    auto session = session_;
    struct Totals {
        std::int64_t steps = 0;
        double peak = 0;
    };
    alwaysLive_ = double(session_->summary().alwaysLiveBytes);
    runInBackground<Totals>(
        this,
        [session] {
            return session->read([](const report::ProfileReader& reader) {
                Totals t;
                t.steps = reader.counts().steps;
                // The coarsest pyramid level covers the program in a handful of rows.
                const std::int64_t level = reader.livenessLodLevelFor(double(t.steps));
                if (level >= 0) {
                    for (const auto& row : reader.livenessLod(level, 0, t.steps))
                        t.peak = std::max(t.peak, double(row.maxNotAlwaysLiveBytes));
                } else {
                    for (std::uint64_t b : reader.stepNotAlwaysLiveBytes(0, t.steps))
                        t.peak = std::max(t.peak, double(b));
                }
                return t;
            });
        },
        [this](Totals t) {
            stepCount_ = t.steps;
            peak_ = t.peak;
            loaded_ = true;
            emit loadedChanged();
        },
        [this](const QString& message) { reportFailure(message); });
}

LivenessModel::Window LivenessModel::fetchWindow(const ReportSession& session,
                                                 std::int64_t firstStep, std::int64_t endStep,
                                                 int widthPx) {
    Window w;
    w.firstStep = firstStep;
    w.endStep = endStep;
    w.widthPx = widthPx;
    const std::int64_t span = endStep - firstStep;
    if (span <= 0 || widthPx <= 0)
        return w;
    const auto columns = std::size_t(std::min<std::int64_t>(span, widthPx));
    std::vector<Point> cols(columns, Point{0, -1, 0, 0});
    session.read([&](const report::ProfileReader& reader) {
        const double stepsPerColumn = double(span) / double(columns);
        // Exact steps while there are only a few per pixel. Otherwise the pyramid: buckets at
        // most one column wide keep columns exact; when even the finest bucket is wider, each
        // column gets the range of the buckets it overlaps (an envelope that never hides a peak).
        if (stepsPerColumn > kStepsPerColumn) {
            w.lodLevel = reader.livenessLodLevelFor(stepsPerColumn);
            if (w.lodLevel < 0)
                w.lodLevel = reader.livenessLodLevelFor(double(reader.livenessLodBase()));
        }
        if (w.lodLevel >= 0) {
            for (const auto& row : reader.livenessLod(w.lodLevel, firstStep, endStep - 1)) {
                const double lo = double(row.minNotAlwaysLiveBytes);
                const double hi = double(row.maxNotAlwaysLiveBytes);
                if (double(row.lastStep - row.firstStep + 1) <= stepsPerColumn) {
                    addToColumns(cols, firstStep, endStep, row.firstStep, row.lastStep, lo, hi);
                    continue;
                }
                const std::int64_t a = std::max(row.firstStep, firstStep);
                const std::int64_t b = std::min(row.lastStep, endStep - 1);
                for (std::size_t c = columnOf(a, firstStep, span, columns);
                     c <= columnOf(b, firstStep, span, columns); ++c) {
                    // The part of the bucket inside column c (the steps columnOf maps to c).
                    const auto n = std::int64_t(columns), k = std::int64_t(c);
                    const std::int64_t c0 = firstStep + (k * span + n - 1) / n;
                    const std::int64_t c1 = firstStep + ((k + 1) * span + n - 1) / n - 1;
                    if (std::max(a, c0) <= std::min(b, c1))
                        addToColumns(cols, firstStep, endStep, std::max(a, c0), std::min(b, c1), lo,
                                     hi);
                }
            }
        } else {
            const auto bytes = reader.stepNotAlwaysLiveBytes(firstStep, span);
            for (std::size_t i = 0; i < bytes.size(); ++i) {
                const std::int64_t step = firstStep + std::int64_t(i);
                addToColumns(cols, firstStep, endStep, step, step, double(bytes[i]),
                             double(bytes[i]));
            }
        }
    });
    for (const Point& p : cols)
        if (p.lastStep >= p.firstStep)
            w.points.push_back(p);
    return w;
}

LivenessGroupSeries LivenessModel::fetchGroups(const ReportSession& session, Grouping grouping,
                                               const TileSelection& selection) {
    const report::TargetInfo& target = session.target();
    std::vector<int> groupOfTile(target.numTiles(), -1);
    std::vector<QString> names;
    if (grouping == PerIpu) {
        for (std::uint32_t t = 0; t < target.numTiles(); ++t)
            groupOfTile[t] = int(t / std::max<std::uint32_t>(1, target.tilesPerIpu));
        for (std::uint32_t i = 0; i < target.numIpus; ++i)
            names.push_back(QObject::tr("IPU %1").arg(i));
    } else if (grouping == SelectedTiles) {
        for (const auto& r : selection.ranges())
            for (std::uint32_t t = r.first; t <= r.last && t < target.numTiles(); ++t)
                groupOfTile[t] = 0;
        names.push_back(QObject::tr("Tiles %1").arg(selection.toString()));
    }
    return session.read([&](const report::ProfileReader& reader) {
        return LivenessGroupSeries::build(reader, groupOfTile, names);
    });
}

void LivenessModel::setGrouping(Grouping grouping, const TileSelection& selection) {
    grouping_ = grouping;
    groupSelection_ = grouping == SelectedTiles ? selection : TileSelection();
    groups_.reset();
    groupColumns_.clear();
    groupWidth_ = -1;
    const std::uint64_t generation = ++groupGeneration_;
    emit groupsChanged();
    if (grouping == AllTiles || (grouping == SelectedTiles && selection.empty()))
        return;
    auto session = session_;
    runInBackground<std::shared_ptr<const LivenessGroupSeries>>(
        this,
        [session, grouping, selection] {
            return std::make_shared<const LivenessGroupSeries>(
                fetchGroups(*session, grouping, selection));
        },
        [this, generation](std::shared_ptr<const LivenessGroupSeries> series) {
            if (generation != groupGeneration_)
                return;
            groups_ = std::move(series);
            emit groupsChanged();
        },
        [this](const QString& message) { reportFailure(message); });
}

const std::vector<LivenessGroupSeries::Column>&
LivenessModel::groupWindow(std::int64_t firstStep, std::int64_t endStep, int widthPx) {
    if (!groups_) {
        groupColumns_.clear();
        return groupColumns_;
    }
    if (firstStep != groupFirst_ || endStep != groupEnd_ || widthPx != groupWidth_) {
        groupColumns_ = groups_->window(firstStep, endStep, widthPx);
        groupFirst_ = firstStep;
        groupEnd_ = endStep;
        groupWidth_ = widthPx;
    }
    return groupColumns_;
}

void LivenessModel::requestWindow(std::int64_t firstStep, std::int64_t endStep, int widthPx) {
    // A frame painted before the step count is known would ask for an empty window, and its
    // empty answer would read as "the chart is ready".
    if (!loaded_)
        return;
    firstStep = std::clamp<std::int64_t>(firstStep, 0, stepCount_);
    endStep = std::clamp<std::int64_t>(endStep, firstStep, stepCount_);
    Window request;
    request.firstStep = firstStep;
    request.endStep = endStep;
    request.widthPx = widthPx;
    fetch_.ask(std::move(request));
}

void LivenessModel::startFetch(const Window& request) {
    auto session = session_;
    fetch_.run<Window>(
        this,
        [session, request] {
            return fetchWindow(*session, request.firstStep, request.endStep, request.widthPx);
        },
        [this](Window w) {
            window_ = std::move(w);
            emit windowChanged();
        },
        [this](const QString& message) { reportFailure(message); });
}

void LivenessModel::reportFailure(const QString& message) {
    error_ = message;
    emit failed(message);
}

} // namespace tilescope::gui
