// Counter rows of the timeline: each series as a stepped line over a light fill, or the series of
// a graph stacked as areas (ChartStacking), with the row's scale.

#include "ChartStacking.hpp"
#include "TimelineCanvas.hpp"
#include "TimelineModel.hpp"
#include "canvas/SeriesColours.hpp"
#include "core/Format.hpp"

#include <QPalette>
#include <algorithm>

namespace tilescope::gui {

void TimelineCanvas::setChartMode(ChartMode mode) {
    if (mode == chartMode_)
        return;
    chartMode_ = mode;
    update();
}

void TimelineCanvas::drawChart(ImDrawList& list, int row, const QRectF& r) {
    const auto& window = model_.window();
    const auto it = window.charts.find(row);
    if (it == window.charts.end())
        return;
    double lo = 0, hi = 0;
    bool any = false;
    if (chartMode_ == ChartMode::StackedArea && it->second.size() > 1) {
        drawStackedChart(list, row, r, stackSeries(it->second));
        return;
    }
    for (const auto& s : it->second)
        for (const auto& p : s.points) {
            lo = any ? std::min(lo, p.min) : p.min;
            hi = any ? std::max(hi, p.max) : p.max;
            any = true;
        }
    if (!any)
        return;
    lo = std::min(lo, 0.0);
    if (hi <= lo)
        hi = lo + 1;
    const float top = float(r.top()) + 4, bottom = float(r.bottom()) - 2;
    auto y = [&](double v) { return bottom - float((v - lo) / (hi - lo)) * (bottom - top); };
    int index = 0;
    for (const auto& s : it->second) {
        const QColor c = seriesColour(1 + index++);
        const ImU32 area = colour(c, 0.35), stroke = colour(c);
        float prevX = 0, prevY = 0;
        bool first = true;
        for (const auto& p : s.points) {
            const float x =
                std::clamp(float(pixelAtTime(p.tNs)), float(plot_.left()), float(plot_.right()));
            if (!first) {
                // Steps, as counters hold their value until the next sample.
                list.AddRectFilled(ImVec2(prevX, prevY), ImVec2(std::max(x, prevX + 1), bottom),
                                   area);
                list.AddLine(ImVec2(prevX, prevY), ImVec2(x, prevY), stroke);
                list.AddLine(ImVec2(x, prevY), ImVec2(x, y(p.mean)), stroke);
            }
            if (p.max > p.min)
                list.AddLine(ImVec2(x, y(p.min)), ImVec2(x, y(p.max)), stroke);
            prevX = x;
            prevY = y(p.mean);
            first = false;
        }
        if (!first) {
            // The last value holds until the trace ends: a series with a single sample in the
            // window (a host-memory counter sampled once) still draws its level.
            const float end = std::clamp(float(pixelAtTime(model_.endNs())), float(plot_.left()),
                                         float(plot_.right()));
            if (end > prevX) {
                list.AddRectFilled(ImVec2(prevX, prevY), ImVec2(end, bottom), area);
                list.AddLine(ImVec2(prevX, prevY), ImVec2(end, prevY), stroke);
            } else {
                list.AddLine(ImVec2(prevX - 1, prevY), ImVec2(prevX + 1, prevY), stroke, 2.0f);
            }
        }
    }
    drawChartScale(list, row, r, hi);
}

void TimelineCanvas::drawChartScale(ImDrawList& list, int row, const QRectF& r, double hi) {
    const auto& rowInfo = model_.rows()[std::size_t(row)];
    const QString scale = rowInfo.unit == QLatin1String("bytes")
                              ? formatBytes(hi)
                              : QStringLiteral("%1 %2").arg(hi, 0, 'g', 4).arg(rowInfo.unit);
    list.AddText(ImVec2(float(plot_.right()) - 120, float(r.top()) + 2),
                 colour(palette().color(QPalette::Text)), scale.toUtf8().constData());
}

void TimelineCanvas::drawStackedChart(ImDrawList& list, int row, const QRectF& r,
                                      const std::vector<std::vector<TimelineModel::Point>>& bands) {
    double lo = 0, hi = 0;
    for (const auto& band : bands)
        for (const auto& p : band) {
            lo = std::min({lo, p.min, p.max});
            hi = std::max({hi, p.min, p.max});
        }
    if (hi <= lo)
        hi = lo + 1;
    const float top = float(r.top()) + 4, bottom = float(r.bottom()) - 2;
    auto y = [&](double v) { return bottom - float((v - lo) / (hi - lo)) * (bottom - top); };
    auto x = [&](std::int64_t ns) {
        return std::clamp(float(pixelAtTime(ns)), float(plot_.left()), float(plot_.right()));
    };
    for (std::size_t i = 0; i < bands.size(); ++i) {
        const QColor c = seriesColour(1 + int(i));
        const ImU32 area = colour(c, 0.7), stroke = colour(c);
        const auto& band = bands[i];
        // Each value holds until the next time: one filled step per interval.
        for (std::size_t k = 0; k + 1 < band.size(); ++k) {
            const float x0 = x(band[k].tNs), x1 = std::max(x(band[k + 1].tNs), x0 + 1);
            const float yTop = y(band[k].max), yBase = y(band[k].min);
            if (yBase - yTop >= 0.5f)
                list.AddRectFilled(ImVec2(x0, yTop), ImVec2(x1, yBase), area);
            list.AddLine(ImVec2(x0, yTop), ImVec2(x1, yTop), stroke);
            list.AddLine(ImVec2(x1, yTop), ImVec2(x1, y(band[k + 1].max)), stroke);
        }
    }
    drawChartScale(list, row, r, hi);
}

} // namespace tilescope::gui
