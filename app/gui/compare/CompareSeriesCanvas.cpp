#include "CompareSeriesCanvas.hpp"

#include "canvas/ColumnLookup.hpp"

#include <algorithm>
#include <cmath>

namespace tilescope::gui {
namespace {
const QColor kSource(0x4e, 0x79, 0xa7);
const QColor kTarget(0xf2, 0x8e, 0x2b);
const QColor kWorse(0xd6, 0x27, 0x28);
const QColor kBetter(0x2c, 0xa0, 0x2c);
constexpr float kLaneGap = 18;

void text(const QString& s) {
    ImGui::TextUnformatted(s.toUtf8().constData());
}
} // namespace

CompareSeriesCanvas::CompareSeriesCanvas(Mode mode, QWidget* parent)
    : ChartCanvas(parent), mode_(mode),
      format_([](double v) { return QString::number(std::llround(v)); }) {
    setMessage(tr("Loading…"));
}

void CompareSeriesCanvas::setSeries(std::shared_ptr<const CompareSeries> series) {
    series_ = std::move(series);
    if (series_) {
        viewport().setExtent(double(std::max<std::size_t>(1, series_->size())), 1.0);
        viewport().reset();
    }
    dirty_ = true;
    update();
}

void CompareSeriesCanvas::setMessage(const QString& message) {
    message_ = message;
    update();
}

void CompareSeriesCanvas::setValueFormat(std::function<QString(double)> format, bool binaryTicks) {
    format_ = std::move(format);
    binaryTicks_ = binaryTicks;
    update();
}

void CompareSeriesCanvas::setPointLabel(std::function<QString(std::size_t)> label) {
    label_ = std::move(label);
}

QString CompareSeriesCanvas::message() const {
    if (!series_)
        return message_;
    if (series_->size() == 0)
        return tr("Neither report has anything to show here");
    return {};
}

QString CompareSeriesCanvas::formatY(double value) const {
    return format_(value);
}

double CompareSeriesCanvas::yTickUnit(double yMax) const {
    if (binaryTicks_)
        return ChartCanvas::yTickUnit(yMax);
    double unit = 1;
    while (unit * 1000 <= yMax)
        unit *= 1000;
    return unit;
}

void CompareSeriesCanvas::prepareFrame(const QRectF& plot) {
    if (!series_)
        return;
    const auto first = std::uint32_t(std::max(0.0, std::floor(viewport().begin())));
    const auto end = std::uint32_t(std::max(0.0, std::ceil(viewport().end())));
    const int widthPx = std::max(1, int(plot.width()));
    if (dirty_ || first != cachedFirst_ || end != cachedEnd_ || widthPx != cachedWidth_) {
        columns_ = series_->columns(first, end, widthPx);
        cachedFirst_ = first;
        cachedEnd_ = end;
        cachedWidth_ = widthPx;
        dirty_ = false;
    }
    yMax_ = std::max(1.0, columns_.maxValue * 1.08);
}

int CompareSeriesCanvas::columnAt(double plotX) const {
    return columnContaining(
        columns_.columns, viewport().toDomain(plotX, plotRect().width()),
        [](const auto& c) { return c.first; }, [](const auto& c) { return c.end; });
}

void CompareSeriesCanvas::drawChart(ImDrawList& list, const QRectF& plot) {
    switch (mode_) {
    case Mode::Overlay:
        drawOverlayChart(list, plot);
        break;
    case Mode::Lanes:
        drawLanes(list, plot);
        break;
    case Mode::Difference:
        drawDifference(list, plot);
        break;
    }
    if (hasHover() && plot.contains(hoverPosition())) {
        const int c = columnAt(hoverPosition().x() - plot.left());
        if (c >= 0) {
            const auto& col = columns_.columns[std::size_t(c)];
            list.AddRectFilled(
                ImVec2(float(xToPixel(col.first)), float(plot.top())),
                ImVec2(std::max(float(xToPixel(col.end)), float(xToPixel(col.first)) + 1),
                       float(plot.bottom())),
                colour(palette().color(QPalette::Text), 0.10));
            drawTooltip(c);
        }
    }
}

void CompareSeriesCanvas::drawOverlayChart(ImDrawList& list, const QRectF&) {
    // Envelopes first (min..max of the column), then a line through each side's column maxima,
    // since the fuller tile or the longer step is the one that matters.
    for (int side = 0; side < 2; ++side) {
        const ImU32 band = colour(side == 0 ? kSource : kTarget, 0.45);
        const ImU32 line = colour(side == 0 ? kSource : kTarget);
        ImVec2 previous;
        bool havePrevious = false;
        for (const auto& col : columns_.columns) {
            const bool has = side == 0 ? col.hasSource : col.hasTarget;
            if (!has) {
                havePrevious = false;
                continue;
            }
            const double lo = side == 0 ? col.sourceMin : col.targetMin;
            const double hi = side == 0 ? col.sourceMax : col.targetMax;
            const float x0 = float(xToPixel(col.first));
            const float x1 = std::max(float(xToPixel(col.end)), x0 + 1);
            const float yHi = float(yToPixel(hi));
            const float yLo = std::max(float(yToPixel(lo)), yHi + 1);
            list.AddRectFilled(ImVec2(x0, yHi), ImVec2(x1, yLo), band);
            const ImVec2 left(x0, yHi), right(x1, yHi);
            if (havePrevious)
                list.AddLine(previous, left, line, 1.5f);
            list.AddLine(left, right, line, 1.5f);
            previous = right;
            havePrevious = true;
        }
    }
}

void CompareSeriesCanvas::drawLanes(ImDrawList& list, const QRectF& plot) {
    const float laneHeight = float(plot.height() - kLaneGap) / 2;
    const double scale = std::max(1.0, columns_.maxValue);
    const ImU32 unchanged = colour(kTarget);
    const ImU32 worse = colour(kWorse), better = colour(kBetter), source = colour(kSource);
    for (int lane = 0; lane < 2; ++lane) {
        const float bottom =
            float(plot.top()) + laneHeight * float(lane + 1) + kLaneGap * float(lane);
        for (const auto& col : columns_.columns) {
            const bool has = lane == 0 ? col.hasSource : col.hasTarget;
            if (!has)
                continue;
            const double hi = lane == 0 ? col.sourceMax : col.targetMax;
            const float x0 = float(xToPixel(col.first));
            float x1 = std::max(float(xToPixel(col.end)), x0 + 1);
            if (x1 - x0 > 4)
                x1 -= 1;
            const float top = bottom - float(hi / scale) * laneHeight;
            ImU32 fill = source;
            if (lane == 1)
                fill = col.diffMax > 0 ? worse : (col.diffMin < 0 ? better : unchanged);
            list.AddRectFilled(ImVec2(x0, std::min(top, bottom - 1)), ImVec2(x1, bottom), fill);
        }
        list.AddLine(ImVec2(float(plot.left()), bottom), ImVec2(float(plot.right()), bottom),
                     colour(palette().color(QPalette::Text), 0.4));
    }
}

void CompareSeriesCanvas::drawDifference(ImDrawList& list, const QRectF& plot) {
    const double m = std::max(1.0, columns_.maxAbsDiff * 1.08);
    const float zero = float(plot.center().y());
    const float half = float(plot.height()) / 2;
    auto y = [&](double d) { return zero - float(d / m) * half; };
    const ImU32 worse = colour(kWorse), better = colour(kBetter);
    for (const auto& col : columns_.columns) {
        const float x0 = float(xToPixel(col.first));
        const float x1 = std::max(float(xToPixel(col.end)), x0 + 1);
        if (col.diffMax > 0)
            list.AddRectFilled(ImVec2(x0, std::min(y(col.diffMax), zero - 1)), ImVec2(x1, zero),
                               worse);
        if (col.diffMin < 0)
            list.AddRectFilled(ImVec2(x0, zero), ImVec2(x1, std::max(y(col.diffMin), zero + 1)),
                               better);
    }
    list.AddLine(ImVec2(float(plot.left()), zero), ImVec2(float(plot.right()), zero),
                 colour(palette().color(QPalette::Text), 0.6));
}

void CompareSeriesCanvas::drawOverlay(ImDrawList& list, const QRectF& plot) {
    const ImU32 label = colour(palette().color(QPalette::Text), 0.85);
    auto leftLabel = [&](float y, const QString& s) {
        const QByteArray utf8 = s.toUtf8();
        const ImVec2 size = ImGui::CalcTextSize(utf8.constData());
        list.AddText(ImVec2(float(plot.left()) - size.x - 6, y - size.y / 2), label,
                     utf8.constData());
    };
    if (mode_ == Mode::Difference) {
        const double m = std::max(1.0, columns_.maxAbsDiff * 1.08);
        leftLabel(float(plot.top()) + 6, QStringLiteral("+") + format_(m));
        leftLabel(float(plot.center().y()), QStringLiteral("0"));
        leftLabel(float(plot.bottom()) - 6, QStringLiteral("-") + format_(m));
    } else if (mode_ == Mode::Lanes) {
        const float laneHeight = float(plot.height() - kLaneGap) / 2;
        leftLabel(float(plot.top()) + 6, format_(columns_.maxValue));
        leftLabel(float(plot.top()) + laneHeight + kLaneGap + 6, format_(columns_.maxValue));
    }
    // Legend.
    struct Entry {
        QColor colour;
        QString text;
    };
    std::vector<Entry> entries;
    if (mode_ == Mode::Difference)
        entries = {{kWorse, tr("Target more")}, {kBetter, tr("Target less")}};
    else if (mode_ == Mode::Lanes)
        entries = {{kSource, tr("Source (top)")},
                   {kTarget, tr("Target")},
                   {kWorse, tr("slower")},
                   {kBetter, tr("faster")}};
    else
        entries = {{kSource, tr("Source")}, {kTarget, tr("Target")}};
    const float x = float(plot.right()) + 10;
    float y = float(plot.top());
    for (const Entry& e : entries) {
        list.AddRectFilled(ImVec2(x, y + 3), ImVec2(x + 10, y + 13), colour(e.colour));
        list.AddText(ImVec2(x + 15, y), label, e.text.toUtf8().constData());
        y += ImGui::GetTextLineHeightWithSpacing();
    }
}

void CompareSeriesCanvas::drawTooltip(int column) {
    const auto& col = columns_.columns[std::size_t(column)];
    ImGui::BeginTooltip();
    auto value = [&](bool has, double lo, double hi) {
        if (!has)
            return tr("—");
        return lo == hi ? format_(hi) : tr("%1 to %2").arg(format_(lo), format_(hi));
    };
    auto signedValue = [&](double d) {
        return (d > 0   ? QStringLiteral("+")
                : d < 0 ? QStringLiteral("-")
                        : QString()) +
               format_(std::abs(d));
    };
    if (col.end - col.first == 1) {
        text(label_ ? label_(col.first) : QString::number(col.first));
    } else {
        text(tr("%1 to %2 (%3 points)").arg(col.first).arg(col.end - 1).arg(col.end - col.first));
    }
    text(tr("Source: %1").arg(value(col.hasSource, col.sourceMin, col.sourceMax)));
    text(tr("Target: %1").arg(value(col.hasTarget, col.targetMin, col.targetMax)));
    if (col.diffMin == col.diffMax)
        text(tr("Difference: %1").arg(signedValue(col.diffMax)));
    else
        text(tr("Difference: %1 to %2").arg(signedValue(col.diffMin), signedValue(col.diffMax)));
    ImGui::EndTooltip();
}

} // namespace tilescope::gui
