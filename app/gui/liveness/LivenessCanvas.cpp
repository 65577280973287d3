#include "LivenessCanvas.hpp"

#include "LivenessModel.hpp"
#include "canvas/SeriesColours.hpp"
#include "core/Format.hpp"

#include <algorithm>
#include <cmath>

namespace tilescope::gui {
namespace {
constexpr double kMinimumStepsVisible = 8;
void text(const QString& s) {
    ImGui::TextUnformatted(s.toUtf8().constData());
}
} // namespace

LivenessCanvas::LivenessCanvas(LivenessModel& model, QWidget* parent)
    : ChartCanvas(parent), model_(model) {
    connect(&model_, &LivenessModel::loadedChanged, this, [this] {
        viewport().setExtent(double(std::max<std::int64_t>(1, model_.stepCount())),
                             std::min<double>(kMinimumStepsVisible, double(model_.stepCount())));
        update();
    });
    connect(&model_, &LivenessModel::windowChanged, this, qOverload<>(&QWidget::update));
    connect(&model_, &LivenessModel::failed, this, qOverload<>(&QWidget::update));
    connect(&model_, &LivenessModel::groupsChanged, this, qOverload<>(&QWidget::update));
}

void LivenessCanvas::setCompareStep(std::optional<std::int64_t> step) {
    compare_ = step;
    update();
}

void LivenessCanvas::setIncludeAlwaysLive(bool include) {
    includeAlwaysLive_ = include;
    update();
}

void LivenessCanvas::drawStepMarker(ImDrawList& list, const QRectF& plot, std::int64_t step,
                                    const QColor& c) {
    const float x0 = float(xToPixel(double(step)));
    const float x1 = std::max(x0 + 2, float(xToPixel(double(step + 1))));
    list.AddRectFilled(ImVec2(x0, float(plot.top())), ImVec2(x1, float(plot.bottom())),
                       colour(c, 0.8));
}

void LivenessCanvas::drawGroups(ImDrawList& list, const QRectF& plot) {
    const LivenessGroupSeries& series = *model_.groupSeries();
    const auto& cols = *groupColumns_;
    const float bottom = float(plot.bottom());
    if (series.groups() == 1) {
        // One group (the selected tiles): the same stacked chart as for all tiles.
        const double always = base(series.alwaysLive(0));
        const float yAlways = float(yToPixel(always));
        if (includeAlwaysLive_)
            list.AddRectFilled(ImVec2(float(xToPixel(0)), yAlways),
                               ImVec2(float(xToPixel(double(series.stepCount()))), bottom),
                               colour(seriesColour(-10)));
        for (const auto& c : cols) {
            const float x0 = float(xToPixel(double(c.firstStep)));
            const float x1 = std::max(float(xToPixel(double(c.lastStep + 1))), x0 + 1);
            const float yMin = float(yToPixel(always + c.minNotAlwaysLive[0]));
            const float yMax = float(yToPixel(always + c.maxNotAlwaysLive[0]));
            list.AddRectFilled(ImVec2(x0, yMin), ImVec2(x1, yAlways), colour(seriesColour(-11)));
            if (yMax < yMin)
                list.AddRectFilled(ImVec2(x0, yMax), ImVec2(x1, yMin),
                                   colour(seriesColour(-11), 0.45));
        }
        return;
    }
    // Several groups (IPUs): one line each of always-live plus the column's highest
    // not-always-live, and a faint line at each group's always-live level. Runs of columns at
    // the same height make one segment, and the whole-pixel width takes ImGui's textured
    // anti-aliased path (two vertices per point instead of four): with 16 IPUs a frame stays a
    // few tens of thousands of vertices.
    std::vector<ImVec2> points;
    points.reserve(cols.size() * 2);
    for (int g = 0; g < series.groups(); ++g) {
        const QColor c = seriesColour(1 + g);
        const double always = base(series.alwaysLive(g));
        const float yAlways = float(yToPixel(always));
        if (includeAlwaysLive_)
            list.AddLine(ImVec2(float(plot.left()), yAlways), ImVec2(float(plot.right()), yAlways),
                         colour(c, 0.35));
        points.clear();
        for (const auto& col : cols) {
            const float y = float(yToPixel(always + col.maxNotAlwaysLive[std::size_t(g)]));
            const float x0 = float(xToPixel(double(col.firstStep)));
            const float x1 = float(xToPixel(double(col.lastStep + 1)));
            if (!points.empty() && points.back().y == y) {
                points.back().x = x1;
                continue;
            }
            points.emplace_back(x0, y);
            points.emplace_back(x1, y);
        }
        if (points.size() >= 2)
            list.AddPolyline(points.data(), int(points.size()), colour(c), ImDrawFlags_None, 2.0f);
    }
}

void LivenessCanvas::setSelectedStep(std::optional<std::int64_t> step) {
    selected_ = step;
    update();
}

QString LivenessCanvas::message() const {
    if (!model_.error().isEmpty())
        return tr("Cannot read liveness: %1").arg(model_.error());
    if (!model_.isLoaded())
        return tr("Loading liveness…");
    if (model_.stepCount() == 0)
        return tr("This report has no program steps.");
    if (!model_.hasWindow())
        return tr("Loading steps…");
    if (model_.grouping() != LivenessModel::AllTiles && !model_.groupSeries())
        return model_.grouping() == LivenessModel::PerIpu
                   ? tr("Summing the variables' live ranges per IPU…")
                   : tr("Select tiles in the Memory view to chart them here.");
    return {};
}

double LivenessCanvas::yAxisMaximum() const {
    if (model_.grouping() != LivenessModel::AllTiles && model_.groupSeries()) {
        const LivenessGroupSeries& series = *model_.groupSeries();
        return (includeAlwaysLive_ ? series.peakTotal() : groupPeakNotAlwaysLive_) * 1.08 + 1;
    }
    return (base(model_.alwaysLiveBytes()) + model_.peakNotAlwaysLiveBytes()) * 1.08 + 1;
}

QString LivenessCanvas::formatY(double value) const {
    return formatBytes(value);
}

void LivenessCanvas::prepareFrame(const QRectF& plot) {
    const auto first = std::int64_t(std::floor(viewport().begin()));
    const auto end = std::int64_t(std::ceil(viewport().end()));
    model_.requestWindow(first, end, std::max(1, int(plot.width())));
    groupColumns_ = model_.grouping() != LivenessModel::AllTiles && model_.groupSeries()
                        ? &model_.groupWindow(first, end, std::max(1, int(plot.width())))
                        : nullptr;
    // yToPixel asks for the axis maximum per point: the groups' peak is found once a frame.
    groupPeakNotAlwaysLive_ = 0;
    if (groupColumns_ && !includeAlwaysLive_) {
        const LivenessGroupSeries& series = *model_.groupSeries();
        for (int g = 0; g < series.groups(); ++g)
            groupPeakNotAlwaysLive_ =
                std::max(groupPeakNotAlwaysLive_,
                         series.range(g, 0, series.stepCount() - 1).maxNotAlwaysLive);
    }
}

int LivenessCanvas::pointAt(double step) const {
    const auto& points = model_.window().points;
    auto it = std::upper_bound(points.begin(), points.end(), step,
                               [](double s, const auto& p) { return s < double(p.firstStep); });
    if (it == points.begin())
        return -1;
    --it;
    return step < double(it->lastStep + 1) ? int(it - points.begin()) : -1;
}

void LivenessCanvas::drawChart(ImDrawList& list, const QRectF& plot) {
    const QPalette& pal = palette();
    if (groupColumns_) {
        drawGroups(list, plot);
        if (selected_)
            drawStepMarker(list, plot, *selected_, pal.color(QPalette::Highlight));
        if (compare_)
            drawStepMarker(list, plot, *compare_, QColor(0xe1, 0x57, 0x59));
        if (hasHover() && plot.contains(hoverPosition()) && !groupColumns_->empty()) {
            const double step = hoveredX();
            const auto& cols = *groupColumns_;
            auto it = std::upper_bound(cols.begin(), cols.end(), step, [](double s, const auto& c) {
                return s < double(c.firstStep);
            });
            if (it != cols.begin()) {
                --it;
                const LivenessGroupSeries& series = *model_.groupSeries();
                ImGui::BeginTooltip();
                text(it->firstStep == it->lastStep
                         ? tr("Step %1").arg(formatCount(it->firstStep))
                         : tr("Steps %1–%2")
                               .arg(formatCount(it->firstStep), formatCount(it->lastStep)));
                // The columns are an envelope for drawing; the figures are the column's own.
                for (int g = 0; g < series.groups(); ++g) {
                    const auto r = series.range(g, it->firstStep, it->lastStep);
                    text(tr("%1: always-live %2, not-always-live %3 (peak total %4)")
                             .arg(series.name(g), formatBytes(series.alwaysLive(g)),
                                  r.minNotAlwaysLive == r.maxNotAlwaysLive
                                      ? formatBytes(r.maxNotAlwaysLive)
                                      : tr("%1 to %2")
                                            .arg(formatBytes(r.minNotAlwaysLive),
                                                 formatBytes(r.maxNotAlwaysLive)),
                                  formatBytes(series.alwaysLive(g) + r.maxNotAlwaysLive)));
                }
                ImGui::EndTooltip();
            }
        }
        return;
    }
    const double alwaysLive = base(model_.alwaysLiveBytes());
    const ImU32 alwaysColour = colour(seriesColour(-10));
    const ImU32 nalColour = colour(seriesColour(-11));
    const ImU32 nalRangeColour = colour(seriesColour(-11), 0.45);
    const float bottom = float(plot.bottom());
    const float yAlways = float(yToPixel(alwaysLive));

    // Always-live memory is reserved at every step: one band under the whole program.
    if (includeAlwaysLive_)
        list.AddRectFilled(ImVec2(float(xToPixel(0)), yAlways),
                           ImVec2(float(xToPixel(double(model_.stepCount()))), bottom),
                           alwaysColour);
    const auto& points = model_.window().points;
    for (const auto& p : points) {
        float x0 = float(xToPixel(double(p.firstStep)));
        float x1 = float(xToPixel(double(p.lastStep + 1)));
        if (x1 - x0 > 4)
            x0 += 0.5f, x1 -= 0.5f;
        x1 = std::max(x1, x0 + 1);
        const float yMin = float(yToPixel(alwaysLive + p.minNotAlwaysLive));
        const float yMax = float(yToPixel(alwaysLive + p.maxNotAlwaysLive));
        list.AddRectFilled(ImVec2(x0, yMin), ImVec2(x1, yAlways), nalColour);
        if (yMax < yMin)
            list.AddRectFilled(ImVec2(x0, yMax), ImVec2(x1, yMin), nalRangeColour);
    }
    if (selected_)
        drawStepMarker(list, plot, *selected_, pal.color(QPalette::Highlight));
    if (compare_)
        drawStepMarker(list, plot, *compare_, QColor(0xe1, 0x57, 0x59));
    if (hasHover() && plot.contains(hoverPosition())) {
        const double step = hoveredX();
        const int p = pointAt(step);
        if (p >= 0) {
            const auto& pt = points[std::size_t(p)];
            list.AddRectFilled(ImVec2(float(xToPixel(double(pt.firstStep))), float(plot.top())),
                               ImVec2(std::max(float(xToPixel(double(pt.lastStep + 1))),
                                               float(xToPixel(double(pt.firstStep))) + 1),
                                      bottom),
                               colour(pal.color(QPalette::Text), 0.12));
            drawTooltip(p);
        }
    }
}

void LivenessCanvas::drawOverlay(ImDrawList& list, const QRectF& plot) {
    if (groupColumns_ && model_.groupSeries()->groups() > 1) {
        const LivenessGroupSeries& series = *model_.groupSeries();
        const float line = ImGui::GetTextLineHeightWithSpacing();
        float widest = 0;
        for (int g = 0; g < series.groups(); ++g)
            widest = std::max(widest, ImGui::CalcTextSize(series.name(g).toUtf8().constData()).x);
        const float x = float(plot.right()) - widest - 26, y0 = float(plot.top()) + 6;
        list.AddRectFilled(ImVec2(x - 6, y0 - 4),
                           ImVec2(float(plot.right()) - 4, y0 + line * float(series.groups()) + 2),
                           colour(palette().color(QPalette::Base), 0.85), 3.0f);
        for (int g = 0; g < series.groups(); ++g) {
            const float y = y0 + float(g) * line;
            list.AddRectFilled(ImVec2(x, y + 2), ImVec2(x + 10, y + 12),
                               colour(seriesColour(1 + g)));
            list.AddText(ImVec2(x + 16, y), colour(palette().color(QPalette::Text)),
                         series.name(g).toUtf8().constData());
        }
        return;
    }
    QStringList names = {tr("Not-always-live (range within column)"), tr("Not-always-live")};
    std::vector<ImU32> colours = {colour(seriesColour(-11), 0.45), colour(seriesColour(-11))};
    if (includeAlwaysLive_) {
        names << tr("Always-live");
        colours.push_back(colour(seriesColour(-10)));
    } else {
        names << tr("Always-live %1 not drawn").arg(formatBytes(model_.alwaysLiveBytes()));
        colours.push_back(0);
    }
    const float line = ImGui::GetTextLineHeightWithSpacing();
    float widest = 0;
    for (const QString& n : names)
        widest = std::max(widest, ImGui::CalcTextSize(n.toUtf8().constData()).x);
    const float x = float(plot.right()) - widest - 26, y0 = float(plot.top()) + 6;
    list.AddRectFilled(ImVec2(x - 6, y0 - 4), ImVec2(float(plot.right()) - 4, y0 + line * 3 + 2),
                       colour(palette().color(QPalette::Base), 0.85), 3.0f);
    for (int i = 0; i < 3; ++i) {
        const float y = y0 + float(i) * line;
        if (colours[std::size_t(i)])
            list.AddRectFilled(ImVec2(x, y + 2), ImVec2(x + 10, y + 12), colours[std::size_t(i)]);
        list.AddText(ImVec2(x + 16, y), colour(palette().color(QPalette::Text)),
                     names[i].toUtf8().constData());
    }
}

void LivenessCanvas::drawTooltip(int point) {
    const auto& p = model_.window().points[std::size_t(point)];
    const double alwaysLive = model_.alwaysLiveBytes();
    ImGui::BeginTooltip();
    if (p.firstStep == p.lastStep) {
        text(tr("Step %1").arg(formatCount(p.firstStep)));
        text(tr("Not-always-live: %1").arg(formatBytes(p.maxNotAlwaysLive)));
        text(tr("Always-live: %1").arg(formatBytes(alwaysLive)));
        text(tr("Total: %1").arg(formatBytes(alwaysLive + p.maxNotAlwaysLive)));
        text(tr("Click to list the variables live here"));
    } else {
        text(tr("Steps %1–%2").arg(formatCount(p.firstStep), formatCount(p.lastStep)));
        text(tr("Not-always-live: %1 to %2")
                 .arg(formatBytes(p.minNotAlwaysLive), formatBytes(p.maxNotAlwaysLive)));
        text(tr("Always-live: %1").arg(formatBytes(alwaysLive)));
        text(tr("Peak total: %1").arg(formatBytes(alwaysLive + p.maxNotAlwaysLive)));
    }
    ImGui::EndTooltip();
}

void LivenessCanvas::clickedAt(double x, Qt::KeyboardModifiers modifiers) {
    if (model_.stepCount() <= 0)
        return;
    const auto step =
        std::clamp<std::int64_t>(std::int64_t(std::floor(x)), 0, model_.stepCount() - 1);
    if (modifiers & Qt::ShiftModifier) {
        compare_ = step;
        update();
        emit compareStepClicked(step);
        return;
    }
    selected_ = step;
    update();
    emit stepClicked(step);
}

} // namespace tilescope::gui
