// The timeline canvas: its visible range, the overview strip, the ruler, the rows' layout and
// their event tracks. Counter charts, heatmaps, flow arrows, tooltips and input are drawn and
// handled in the TimelineCanvas*.cpp files beside it.

#include "TimelineCanvas.hpp"

#include "HostTraceSession.hpp"
#include "TimelineLayout.hpp"
#include "TimelineModel.hpp"
#include "canvas/AxisTicks.hpp"
#include "canvas/SeriesColours.hpp"
#include "core/Format.hpp"

#include <QDateTime>
#include <algorithm>
#include <cmath>

namespace tilescope::gui {
namespace {

using namespace timeline_layout;

using Kind = TimelineModel::RowKind;

QColor paletteColour(int index) {
    return seriesColour(1 + index);
}

} // namespace

TimelineCanvas::TimelineCanvas(TimelineModel& model, QWidget* parent)
    : ImGuiCanvas(parent), model_(model) {
    connect(&model_, &TimelineModel::windowChanged, this, qOverload<>(&QWidget::update));
    connect(&model_, &TimelineModel::rowsChanged, this, qOverload<>(&QWidget::update));
    connect(&model_, &TimelineModel::failed, this, qOverload<>(&QWidget::update));
    resetExtent();
}

void TimelineCanvas::resetExtent() {
    const double span = double(model_.endNs() - model_.beginNs());
    viewport_.setExtent(span, std::min(kMinimumSpanNs, span));
}

std::int64_t TimelineCanvas::visibleFromNs() const {
    return model_.beginNs() + std::int64_t(std::floor(viewport_.begin()));
}

std::int64_t TimelineCanvas::visibleToNs() const {
    return model_.beginNs() + std::int64_t(std::ceil(viewport_.end()));
}

void TimelineCanvas::showRange(std::int64_t fromNs, std::int64_t toNs) {
    viewport_.setWindow(double(fromNs - model_.beginNs()), double(toNs - model_.beginNs()));
    notifyRange();
}

void TimelineCanvas::notifyRange() {
    emit visibleRangeChanged(visibleFromNs(), visibleToNs());
    update();
}

void TimelineCanvas::setRelativeTime(bool relative) {
    relative_ = relative;
    update();
}

void TimelineCanvas::setHighlight(int row, std::int64_t startNs, std::int64_t endNs) {
    highlightRow_ = row;
    highlightStart_ = startNs;
    highlightEnd_ = endNs;
    update();
}

void TimelineCanvas::clearSelection() {
    selection_.reset();
    update();
}

void TimelineCanvas::selectEvent(int row, std::int64_t startNs, std::int64_t endNs,
                                 std::int64_t eventId, std::int64_t nameId) {
    selectedEvent_ = SelectedEvent{row, startNs, endNs, eventId, nameId};
    update();
    emit eventSelected();
}

std::optional<QRectF> TimelineCanvas::rowRect(int row) const {
    for (const Placed& p : placed_)
        if (p.row == row)
            return QRectF(plot_.left(), p.top, plot_.width(), p.bottom - p.top);
    return std::nullopt;
}

QString TimelineCanvas::formatTime(std::int64_t ns) const {
    if (relative_) {
        // The value's unit, with the decimals a tenth of the visible span needs: 5.17905 s
        // rather than 5.179 s on every tick when zoomed in far from the start.
        const double v = double(ns - model_.beginNs());
        const double a = std::abs(v);
        const double unit = a >= 1e9 ? 1e9 : a >= 1e6 ? 1e6 : a >= 1e3 ? 1e3 : 1;
        const char* name = a >= 1e9 ? "s" : a >= 1e6 ? "ms" : a >= 1e3 ? "µs" : "ns";
        const double resolution = std::max(viewport_.span() / 10, 1.0);
        const int decimals = std::clamp(int(std::ceil(std::log10(unit / resolution))), 0, 9);
        return QStringLiteral("%1 %2").arg(v / unit, 0, 'f', decimals).arg(QString::fromUtf8(name));
    }
    // Time of day (UTC) with as many decimals as the zoom needs.
    const std::int64_t seconds = ns / 1000000000, fraction = ns % 1000000000;
    const QString day =
        QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC).toString(QStringLiteral("HH:mm:ss"));
    const double span = viewport_.span();
    const int digits = span > 1e10 ? 1 : span > 1e8 ? 3 : span > 1e5 ? 6 : 9;
    QString frac = QStringLiteral("%1").arg(fraction, 9, 10, QLatin1Char('0')).left(digits);
    return day + QLatin1Char('.') + frac;
}

double TimelineCanvas::timeAtPixel(double x) const {
    return viewport_.toDomain(x - plot_.left(), plot_.width());
}

double TimelineCanvas::pixelAtTime(std::int64_t ns) const {
    // Relative first: epoch nanoseconds do not fit a double's mantissa.
    return plot_.left() + viewport_.toPixel(double(ns - model_.beginNs()), plot_.width());
}

double TimelineCanvas::relative(std::int64_t ns) const {
    return double(ns - model_.beginNs());
}

float TimelineCanvas::rowHeight(int row) const {
    switch (model_.rows()[std::size_t(row)].kind) {
    case Kind::Track:
    case Kind::DeviceTrack:
    case Kind::AsyncTrack:
        return kTrackHeight;
    case Kind::Counter:
    case Kind::Heatmap:
        return kChartHeight;
    default:
        return kHeaderHeight;
    }
}

void TimelineCanvas::layoutRows(float plotTop, float plotBottom) {
    placed_.clear();
    const std::vector<int> shown = model_.shownRows();
    // Pinned rows stay at the top; the others scroll beneath them.
    float y = plotTop;
    std::size_t i = 0;
    for (; i < shown.size() && model_.rows()[std::size_t(shown[i])].pinned; ++i) {
        placed_.push_back({shown[i], y, y + rowHeight(shown[i])});
        y += rowHeight(shown[i]);
    }
    const float scrollTop = y;
    double total = 0;
    for (std::size_t k = i; k < shown.size(); ++k)
        total += rowHeight(shown[k]);
    contentHeight_ = total;
    scrollY_ = std::clamp(scrollY_, 0.0, std::max(0.0, total - double(plotBottom - scrollTop)));
    float at = scrollTop - float(scrollY_);
    for (; i < shown.size(); ++i) {
        const float h = rowHeight(shown[i]);
        if (at + h > scrollTop && at < plotBottom)
            placed_.push_back({shown[i], std::max(at, scrollTop), at + h});
        at += h;
    }
}

const TimelineCanvas::Placed* TimelineCanvas::placedAt(double y) const {
    for (const Placed& p : placed_)
        if (y >= p.top && y < p.bottom)
            return &p;
    return nullptr;
}

void TimelineCanvas::drawFrame(ImDrawList& list, const QSizeF& size) {
    const float w = float(size.width()), h = float(size.height());
    measureLabels(w);
    overview_ = QRectF(labelWidth_, 2, std::max(1.0f, w - labelWidth_ - 8), kOverviewHeight - 4);
    ruler_ = QRectF(labelWidth_, kOverviewHeight, overview_.width(), kRulerHeight);
    plot_ = QRectF(labelWidth_, kOverviewHeight + kRulerHeight, overview_.width(),
                   std::max(1.0f, h - kOverviewHeight - kRulerHeight));
    const ImU32 textColour = colour(palette().color(QPalette::Text));
    if (model_.empty()) {
        const char* msg = model_.files().empty() ? "No host trace is open."
                                                 : "The host trace has no events or samples.";
        list.AddText(ImVec2(20, 20), textColour, msg);
        return;
    }
    layoutRows(float(plot_.top()), float(plot_.bottom()));
    std::vector<int> rows;
    rows.reserve(placed_.size());
    for (const Placed& p : placed_)
        rows.push_back(p.row);
    model_.requestWindow(visibleFromNs(), visibleToNs(), std::max(1, int(plot_.width())), rows);
    drawOverview(list);
    drawRuler(list);
    drawRows(list);
    if (!model_.error().isEmpty())
        list.AddText(ImVec2(float(plot_.left()) + 8, float(plot_.top()) + 8),
                     colour(QColor(0xd0, 0x30, 0x30)),
                     tr("Cannot read the trace: %1").arg(model_.error()).toUtf8().constData());
}

void TimelineCanvas::measureLabels(float canvasWidth) {
    const auto& rows = model_.rows();
    if (rows.size() != labelRows_) {
        float widest = 0;
        for (const auto& row : rows) {
            QString label = row.label;
            if ((row.kind == Kind::Counter || row.kind == Kind::Heatmap) && !row.unit.isEmpty())
                label += QStringLiteral(" [%1]").arg(row.unit);
            widest = std::max(widest, 6 + float(row.indent) * 12 + 12 +
                                          ImGui::CalcTextSize(label.toUtf8().constData()).x);
        }
        labelRows_ = rows.size();
        labelWanted_ = std::max(kLabelWidth, widest + kPinWidth + 8);
    }
    labelWidth_ = std::clamp(labelWanted_, kLabelWidth, std::max(kLabelWidth, canvasWidth * 0.4f));
}

QString TimelineCanvas::formatRulerTime(std::int64_t ns) const {
    if (!relative_ || rulerUnit_ <= 0)
        return formatTime(ns);
    const double v = double(ns - model_.beginNs());
    const double resolution = std::max(viewport_.span() / 10, 1.0);
    const int decimals = std::clamp(int(std::ceil(std::log10(rulerUnit_ / resolution))), 0, 9);
    return QStringLiteral("%1 %2")
        .arg(v / rulerUnit_, 0, 'f', decimals)
        .arg(QString::fromUtf8(rulerUnitName_));
}

void TimelineCanvas::drawOverview(ImDrawList& list) {
    const ImU32 fill = colour(palette().color(QPalette::Highlight), 0.7);
    list.AddRectFilled(ImVec2(float(overview_.left()), float(overview_.top())),
                       ImVec2(float(overview_.right()), float(overview_.bottom())),
                       colour(palette().color(QPalette::AlternateBase)));
    // Sum of every file's activity, drawn against the union of their spans.
    std::vector<double> columns(HostTraceSession::kOverviewColumns, 0.0);
    double peak = 0;
    const double span = double(model_.endNs() - model_.beginNs());
    for (const auto& f : model_.files()) {
        if (f->empty())
            continue;
        const auto& ov = f->overview();
        const double colNs = double(f->endNs() - f->beginNs()) / double(ov.size());
        for (std::size_t c = 0; c < ov.size(); ++c) {
            const double t = double(f->beginNs() - model_.beginNs()) + (double(c) + 0.5) * colNs;
            const auto k = std::size_t(
                std::clamp(t / span * double(columns.size()), 0.0, double(columns.size() - 1)));
            columns[k] += ov[c];
        }
    }
    for (double v : columns)
        peak = std::max(peak, v);
    const double colW = overview_.width() / double(columns.size());
    for (std::size_t c = 0; c < columns.size(); ++c) {
        if (columns[c] <= 0 || peak <= 0)
            continue;
        const double hgt = columns[c] / peak * overview_.height();
        list.AddRectFilled(
            ImVec2(float(overview_.left() + double(c) * colW), float(overview_.bottom() - hgt)),
            ImVec2(float(overview_.left() + double(c + 1) * colW), float(overview_.bottom())),
            fill);
    }
    const double x0 = overview_.left() + viewport_.begin() / span * overview_.width();
    const double x1 = overview_.left() + viewport_.end() / span * overview_.width();
    list.AddRectFilled(ImVec2(float(x0), float(overview_.top())),
                       ImVec2(float(std::max(x1, x0 + 2)), float(overview_.bottom())),
                       colour(palette().color(QPalette::Text), 0.12));
    list.AddRect(ImVec2(float(x0), float(overview_.top())),
                 ImVec2(float(std::max(x1, x0 + 2)), float(overview_.bottom())),
                 colour(palette().color(QPalette::Text), 0.8));
    list.AddText(ImVec2(8, float(overview_.top()) + 6), colour(palette().color(QPalette::Text)),
                 tr("Overview").toUtf8().constData());
}

void TimelineCanvas::drawRuler(ImDrawList& list) {
    const ImU32 textColour = colour(palette().color(QPalette::Text));
    const ImU32 grid = colour(palette().color(QPalette::Mid), 0.35);
    const int maxTicks = std::max(2, int(ruler_.width() / 140));
    const double lo = viewport_.begin(), hi = viewport_.end();
    const auto ticks = niceTicks(lo, hi, maxTicks);
    // One unit for the whole ruler, that of its largest tick: "0 ms … 500 ms", never "0 ns"
    // beside "500.00 ms".
    double largest = 0;
    for (const double t : ticks)
        largest = std::max(largest, std::abs(t));
    rulerUnit_ = largest >= 1e9 ? 1e9 : largest >= 1e6 ? 1e6 : largest >= 1e3 ? 1e3 : 1;
    rulerUnitName_ = largest >= 1e9 ? "s" : largest >= 1e6 ? "ms" : largest >= 1e3 ? "µs" : "ns";
    for (const double t : ticks) {
        const float x = float(plot_.left() + viewport_.toPixel(t, plot_.width()));
        list.AddLine(ImVec2(x, float(ruler_.top()) + 14), ImVec2(x, float(plot_.bottom())), grid);
        list.AddText(ImVec2(x + 3, float(ruler_.top()) + 2), textColour,
                     formatRulerTime(model_.beginNs() + std::llround(t)).toUtf8().constData());
    }
    const QString mode = relative_ ? tr("Relative time (R)") : tr("Time of day, UTC (R)");
    list.AddText(ImVec2(8, float(ruler_.top()) + 4), textColour, mode.toUtf8().constData());
}

void TimelineCanvas::drawRows(ImDrawList& list) {
    const ImU32 textColour = colour(palette().color(QPalette::Text));
    const ImU32 line = colour(palette().color(QPalette::Mid), 0.3);
    const ImU32 header = colour(palette().color(QPalette::AlternateBase));
    list.PushClipRect(ImVec2(0, float(plot_.top())),
                      ImVec2(float(plot_.right()) + 8, float(plot_.bottom())));
    for (const Placed& p : placed_) {
        const auto& row = model_.rows()[std::size_t(p.row)];
        const QRectF r(plot_.left(), p.top, plot_.width(), p.bottom - p.top);
        const bool headerRow = row.kind == Kind::File || row.kind == Kind::Process ||
                               row.kind == Kind::Thread || row.kind == Kind::Device ||
                               row.kind == Kind::Async;
        if (headerRow)
            list.AddRectFilled(ImVec2(0, p.top), ImVec2(float(plot_.right()), p.bottom), header);
        list.AddLine(ImVec2(0, p.bottom - 0.5f), ImVec2(float(plot_.right()), p.bottom - 0.5f),
                     line);
        QString label = row.label;
        if ((row.kind == Kind::Counter || row.kind == Kind::Heatmap) && !row.unit.isEmpty())
            label += QStringLiteral(" [%1]").arg(row.unit);
        const float x = 6 + float(row.indent) * 12;
        const float mid = (p.top + p.bottom) / 2;
        if (headerRow) {
            // Expander: a triangle pointing down when open, right when closed.
            if (row.expanded)
                list.AddTriangleFilled(ImVec2(x, mid - 3), ImVec2(x + 8, mid - 3),
                                       ImVec2(x + 4, mid + 3), textColour);
            else
                list.AddTriangleFilled(ImVec2(x + 1, mid - 4), ImVec2(x + 7, mid),
                                       ImVec2(x + 1, mid + 4), textColour);
        }
        list.PushClipRect(ImVec2(0, p.top), ImVec2(labelWidth_ - kPinWidth - 2, p.bottom), true);
        list.AddText(ImVec2(x + 12, p.top + 3), textColour, label.toUtf8().constData());
        list.PopClipRect();
        const ImVec2 pin(labelWidth_ - kPinWidth / 2 - 2, mid);
        if (row.pinned)
            list.AddCircleFilled(pin, 4, textColour);
        else
            list.AddCircle(pin, 4, colour(palette().color(QPalette::Text), 0.3));
        if (TimelineModel::isTrack(row.kind))
            drawTrack(list, p.row, r);
        else if (row.kind == Kind::Counter)
            drawChart(list, p.row, r);
        else if (row.kind == Kind::Heatmap)
            drawHeatmap(list, p.row, r);
    }
    if (selection_) {
        const float x0 = float(pixelAtTime(selection_->first));
        const float x1 = float(pixelAtTime(selection_->second));
        list.AddRectFilled(ImVec2(x0, float(plot_.top())),
                           ImVec2(std::max(x1, x0 + 1), float(plot_.bottom())),
                           colour(palette().color(QPalette::Highlight), 0.18));
    }
    drawFlows(list);
    list.PopClipRect();
    if (hasHover() && plot_.contains(hoverPosition()) && drag_ == Drag::None)
        if (const Placed* p = placedAt(hoverPosition().y()))
            drawTooltip(p->row, timeAtPixel(hoverPosition().x()));
}

void TimelineCanvas::drawTrack(ImDrawList& list, int row, const QRectF& r) {
    const auto& window = model_.window();
    const auto it = window.tracks.find(row);
    if (it == window.tracks.end())
        return;
    const ImU32 textColour = colour(QColor(0x10, 0x10, 0x10));
    const float top = float(r.top()) + 1, bottom = float(r.bottom()) - 1;
    const float left = float(plot_.left()), right = float(plot_.right());
    // Colours per palette entry and busy level, converted once per frame, not once per box.
    constexpr int kShades = 8;
    ImU32 solid[TimelineModel::kPaletteSize], marker[TimelineModel::kPaletteSize];
    ImU32 shaded[TimelineModel::kPaletteSize][kShades];
    for (int i = 0; i < TimelineModel::kPaletteSize; ++i) {
        solid[i] = colour(paletteColour(i));
        marker[i] = colour(paletteColour(i).darker(130));
        for (int k = 0; k < kShades; ++k)
            shaded[i][k] = colour(paletteColour(i), 0.3 + 0.7 * (k + 1) / kShades);
    }
    const ImU32 unfinished = colour(Qt::red);
    for (const auto& b : it->second) {
        float x0 = float(pixelAtTime(b.startNs));
        float x1 = float(pixelAtTime(b.endNs));
        if (x1 < left || x0 > right)
            continue;
        const int c = b.colour % TimelineModel::kPaletteSize;
        if (b.kind == report::EventKind::Instant) {
            list.AddTriangleFilled(ImVec2(x0, top), ImVec2(x0 - 4, bottom), ImVec2(x0 + 4, bottom),
                                   marker[c]);
            continue;
        }
        // Whole pixels: a span shorter than a pixel (a 0.15 ms run at full zoom) still covers
        // one, drawn solid rather than anti-aliased into a faint sliver.
        x0 = std::floor(std::max(x0, left));
        x1 = std::min(std::max(std::ceil(x1), x0 + 1), right + 1);
        const ImU32 fill =
            b.aggregated
                ? shaded[c][std::clamp(int(std::ceil(b.busy * kShades)) - 1, 0, kShades - 1)]
                : solid[c];
        list.AddRectFilled(ImVec2(x0, top), ImVec2(x1, bottom), fill);
        if (!b.aggregated && x1 - x0 > 24) {
            const QByteArray utf8 = model_.eventName(row, b.nameId).toUtf8();
            const ImVec4 clip(x0 + 2, top, x1 - 2, bottom);
            list.AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(x0 + 3, top + 2),
                         textColour, utf8.constData(), utf8.constData() + utf8.size(), 0, &clip);
        }
        if (b.kind == report::EventKind::Unfinished)
            list.AddLine(ImVec2(x1 - 1, top), ImVec2(x1 - 1, bottom), unfinished);
    }
    if (selectedEvent_ && selectedEvent_->row == row) {
        const float x0 = float(pixelAtTime(selectedEvent_->startNs));
        const float x1 = std::max(float(pixelAtTime(selectedEvent_->endNs)), x0 + 2);
        list.AddRect(ImVec2(x0 - 1, top - 1), ImVec2(x1 + 1, bottom + 1),
                     colour(palette().color(QPalette::Highlight)), 0, 0, 2.0f);
    }
    if (row == highlightRow_) {
        const float x0 = float(pixelAtTime(highlightStart_));
        const float x1 = std::max(float(pixelAtTime(highlightEnd_)), x0 + 2);
        list.AddRect(ImVec2(x0 - 1, top - 1), ImVec2(x1 + 1, bottom + 1),
                     colour(palette().color(QPalette::Text)), 0, 0, 2.0f);
    }
}

} // namespace tilescope::gui
