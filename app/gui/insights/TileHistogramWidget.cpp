#include "TileHistogramWidget.hpp"

#include "canvas/SeriesColours.hpp"
#include "core/Format.hpp"
#include "core/ImageSaving.hpp"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

namespace tilescope::gui {

TileHistogramWidget::TileHistogramWidget(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(160);
}

void TileHistogramWidget::setHistogram(const InsightsModel::Histogram& histogram) {
    histogram_ = histogram;
    update();
}

QRectF TileHistogramWidget::plotRect() const {
    const QFontMetrics fm(font());
    return QRectF(QPointF(fm.horizontalAdvance(QStringLiteral("00000")) + 8, 8),
                  QPointF(width() - 10, height() - fm.height() - 10));
}

int TileHistogramWidget::binAt(const QPointF& pos) const {
    const QRectF plot = plotRect();
    if (histogram_.tiles.empty() || !plot.contains(pos))
        return -1;
    return std::clamp(int((pos.x() - plot.left()) / plot.width() * double(histogram_.tiles.size())),
                      0, int(histogram_.tiles.size()) - 1);
}

void TileHistogramWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    if (histogram_.tiles.empty())
        return;
    const QRectF plot = plotRect();
    const std::uint32_t most = *std::max_element(histogram_.tiles.begin(), histogram_.tiles.end());
    const double barWidth = plot.width() / double(histogram_.tiles.size());
    const QColor bar = seriesColour(-1);
    const QColor over = QColor(0xd6, 0x27, 0x28);
    for (std::size_t i = 0; i < histogram_.tiles.size(); ++i) {
        if (histogram_.tiles[i] == 0)
            continue;
        const double h = plot.height() * double(histogram_.tiles[i]) / double(std::max(1u, most));
        const bool overLimit = double(i) * histogram_.binBytes >= double(histogram_.bytesPerTile);
        p.fillRect(
            QRectF(plot.left() + double(i) * barWidth + 1, plot.bottom() - h, barWidth - 2, h),
            overLimit ? over : bar);
    }
    p.setPen(pal.color(QPalette::Text));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.bottomLeft(), plot.topLeft());
    const QFontMetrics fm(font());
    p.drawText(QRectF(0, plot.top(), plot.left() - 4, fm.height()), Qt::AlignRight,
               formatCount(most));
    p.drawText(QRectF(0, plot.bottom() - fm.height(), plot.left() - 4, fm.height()), Qt::AlignRight,
               QStringLiteral("0"));
    p.drawText(QRectF(plot.left(), plot.bottom() + 4, plot.width(), fm.height()), Qt::AlignLeft,
               QStringLiteral("0 B"));
    p.drawText(QRectF(plot.left(), plot.bottom() + 4, plot.width(), fm.height()), Qt::AlignRight,
               formatBytes(histogram_.maximum));
    if (histogram_.bytesPerTile > 0 && histogram_.maximum > 0) {
        const double x =
            plot.left() + plot.width() * double(histogram_.bytesPerTile) / histogram_.maximum;
        p.setPen(QPen(over, 1.5, Qt::DashLine));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    }
}

bool TileHistogramWidget::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int bin = binAt(help->pos());
        if (bin < 0) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(help->globalPos(),
                               tr("%1 tiles use %2 to %3")
                                   .arg(formatCount(histogram_.tiles[std::size_t(bin)]),
                                        formatBytes(double(bin) * histogram_.binBytes),
                                        formatBytes(double(bin + 1) * histogram_.binBytes)),
                               this);
        }
        return true;
    }
    return QWidget::event(event);
}

void TileHistogramWidget::contextMenuEvent(QContextMenuEvent* event) {
    showSaveImageMenu(this, event, tr("histogram"));
}

} // namespace tilescope::gui
