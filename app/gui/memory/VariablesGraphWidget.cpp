#include "VariablesGraphWidget.hpp"

#include "canvas/SeriesColours.hpp"
#include "core/Format.hpp"
#include "core/ImageSaving.hpp"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>

namespace tilescope::gui {
namespace {
constexpr double kLeft = 80, kRight = 16, kTop = 12, kBottom = 28;
} // namespace

VariablesGraphWidget::VariablesGraphWidget(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(160);
}

void VariablesGraphWidget::setSeries(VariableTileSeries series) {
    series_ = std::move(series);
    message_.clear();
    update();
}

void VariablesGraphWidget::setMessage(const QString& message) {
    message_ = message;
    update();
}

std::vector<std::uint64_t> VariablesGraphWidget::columnPeaks(const report::PerTile& bytes,
                                                             int columns) {
    std::vector<std::uint64_t> out(std::size_t(std::max(columns, 0)), 0);
    if (bytes.empty() || columns <= 0)
        return out;
    const double tilesPerColumn = double(bytes.size()) / double(columns);
    for (int c = 0; c < columns; ++c) {
        const auto first = std::size_t(double(c) * tilesPerColumn);
        // At least one tile per column, also when there are fewer tiles than columns.
        const auto end = std::max(first + 1, std::size_t(double(c + 1) * tilesPerColumn));
        for (std::size_t t = first; t < end && t < bytes.size(); ++t)
            out[std::size_t(c)] = std::max(out[std::size_t(c)], bytes[t]);
    }
    return out;
}

void VariablesGraphWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const QRectF plot(kLeft, kTop, std::max(10.0, width() - kLeft - kRight),
                      std::max(10.0, height() - kTop - kBottom));
    if (!message_.isEmpty() || series_.bytes.empty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter,
                   message_.isEmpty() ? tr("Select variables in the table to graph their bytes "
                                           "per tile")
                                      : message_);
        return;
    }
    const int columns = int(plot.width());
    std::vector<std::vector<std::uint64_t>> peaks;
    std::uint64_t top = 1;
    for (const auto& bytes : series_.bytes) {
        peaks.push_back(columnPeaks(bytes, columns));
        for (auto v : peaks.back())
            top = std::max(top, v);
    }
    // Axes: bytes on the left (0, half, top), tiles below (first, middle, last).
    p.setPen(pal.color(QPalette::Text));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.bottomLeft(), plot.topLeft());
    for (int i = 0; i <= 2; ++i) {
        const double v = double(top) * i / 2;
        const double y = plot.bottom() - plot.height() * i / 2;
        p.drawText(QRectF(0, y - 8, kLeft - 6, 16), Qt::AlignRight | Qt::AlignVCenter,
                   formatBytes(v));
        const double tile = double(series_.tiles - 1) * i / 2;
        const double x = plot.left() + plot.width() * i / 2;
        p.drawText(QRectF(x - 60, plot.bottom() + 4, 120, 18), Qt::AlignHCenter | Qt::AlignTop,
                   tr("tile %1").arg(formatCount(std::int64_t(tile))));
    }
    // One outline per variable: the column peaks as steps.
    for (std::size_t s = 0; s < peaks.size(); ++s) {
        const QColor c = seriesColour(1 + std::int64_t(s));
        QPainterPath path;
        for (int x = 0; x < columns; ++x) {
            const double y =
                plot.bottom() - double(peaks[s][std::size_t(x)]) / double(top) * plot.height();
            if (x == 0)
                path.moveTo(plot.left(), y);
            else
                path.lineTo(plot.left() + x, y);
            path.lineTo(plot.left() + x + 1, y);
        }
        QColor fill = c;
        fill.setAlphaF(0.25f);
        QPainterPath area = path;
        area.lineTo(plot.right(), plot.bottom());
        area.lineTo(plot.left(), plot.bottom());
        area.closeSubpath();
        p.fillPath(area, fill);
        p.setPen(QPen(c, 1.5));
        p.drawPath(path);
    }
    // Legend, top right.
    const int line = fontMetrics().height();
    int widest = 0;
    for (const QString& n : series_.names)
        widest = std::max(widest, fontMetrics().horizontalAdvance(n));
    const QRectF legend(plot.right() - widest - 28, plot.top() + 4, widest + 24,
                        line * series_.names.size() + 6);
    QColor back = pal.color(QPalette::Base);
    back.setAlphaF(0.85f);
    p.fillRect(legend, back);
    for (int i = 0; i < series_.names.size(); ++i) {
        const QRectF swatch(legend.left() + 4, legend.top() + 3 + i * line + 2, 10, 10);
        p.fillRect(swatch, seriesColour(1 + i));
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QPointF(swatch.right() + 6, legend.top() + 3 + (i + 1) * line - 4),
                   series_.names[i]);
    }
}

void VariablesGraphWidget::contextMenuEvent(QContextMenuEvent* event) {
    showSaveImageMenu(this, event, tr("variables graph"));
}

} // namespace tilescope::gui
