#include "SweepScatter.hpp"

#include "core/Format.hpp"
#include "core/ImageSaving.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace tilescope::gui {
namespace {

constexpr int kMarginLeft = 80, kMarginBottom = 40, kMarginTop = 24, kMarginRight = 40;

/// A "nice" upper bound for an axis: 1, 2 or 5 times a power of ten at or above `value`.
double niceCeiling(double value) {
    if (value <= 0)
        return 1;
    const double magnitude = std::pow(10.0, std::floor(std::log10(value)));
    for (double step : {1.0, 2.0, 5.0, 10.0})
        if (step * magnitude >= value)
            return step * magnitude;
    return 10 * magnitude;
}

} // namespace

SweepScatter::SweepScatter(QWidget* parent) : QWidget(parent) {
    setMinimumSize(320, 240);
    setAutoFillBackground(true);
}

void SweepScatter::setPoints(std::vector<SweepPoint> points, double capacityBytes) {
    points_ = std::move(points);
    capacity_ = capacityBytes;
    double x = capacityBytes, y = 0;
    for (const auto& p : points_) {
        x = std::max(x, p.peakTileBytes);
        y = std::max(y, p.cycles);
    }
    maxX_ = niceCeiling(x * 1.05);
    maxY_ = niceCeiling(y * 1.05);
    update();
}

void SweepScatter::setSelectedRows(const std::vector<int>& rows) {
    selected_ = rows;
    update();
}

QRectF SweepScatter::plotArea() const {
    return QRectF(kMarginLeft, kMarginTop, std::max(1, width() - kMarginLeft - kMarginRight),
                  std::max(1, height() - kMarginTop - kMarginBottom));
}

QPointF SweepScatter::toScreen(const SweepPoint& p) const {
    const QRectF a = plotArea();
    return {a.left() + a.width() * p.peakTileBytes / maxX_,
            a.bottom() - a.height() * p.cycles / maxY_};
}

void SweepScatter::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRectF a = plotArea();
    const QColor text = palette().color(QPalette::WindowText);
    painter.setPen(QPen(text, 1));
    painter.drawRect(a);

    // Ticks: five per axis.
    for (int i = 0; i <= 5; ++i) {
        const double fx = a.left() + a.width() * i / 5, fy = a.bottom() - a.height() * i / 5;
        painter.drawLine(QPointF(fx, a.bottom()), QPointF(fx, a.bottom() + 4));
        painter.drawLine(QPointF(a.left() - 4, fy), QPointF(a.left(), fy));
        painter.drawText(QRectF(fx - 40, a.bottom() + 5, 80, 16), Qt::AlignHCenter,
                         formatBytes(maxX_ * i / 5));
        painter.drawText(QRectF(0, fy - 8, kMarginLeft - 8, 16), Qt::AlignRight | Qt::AlignVCenter,
                         formatCount(static_cast<std::int64_t>(maxY_ * i / 5)));
    }
    painter.drawText(QRectF(a.left(), height() - 18, a.width(), 16), Qt::AlignHCenter,
                     tr("Peak tile memory"));
    painter.drawText(QRectF(4, 2, 300, 18), Qt::AlignLeft, tr("Cycles (first run)"));

    if (capacity_ > 0) {
        SweepPoint edge;
        edge.peakTileBytes = capacity_;
        const double x = toScreen(edge).x();
        painter.setPen(QPen(QColor(190, 30, 30), 1.5, Qt::DashLine));
        painter.drawLine(QPointF(x, a.top()), QPointF(x, a.bottom()));
        painter.drawText(QRectF(x - 150, a.top() + 2, 146, 16), Qt::AlignRight,
                         tr("tile capacity %1").arg(formatBytes(capacity_)));
    }

    // The Pareto front's staircase, in order of memory.
    std::vector<const SweepPoint*> front;
    for (const auto& p : points_)
        if (p.pareto)
            front.push_back(&p);
    std::sort(front.begin(), front.end(), [](const SweepPoint* x, const SweepPoint* y) {
        return x->peakTileBytes < y->peakTileBytes;
    });
    if (front.size() > 1) {
        QPainterPath path(toScreen(*front.front()));
        for (std::size_t i = 1; i < front.size(); ++i) {
            const QPointF from = toScreen(*front[i - 1]), to = toScreen(*front[i]);
            path.lineTo(to.x(), from.y());
            path.lineTo(to);
        }
        painter.setPen(QPen(QColor(230, 120, 0), 1.5));
        painter.drawPath(path);
    }

    painter.setPen(Qt::NoPen);
    for (const auto& p : points_) {
        const QColor c = p.pareto ? QColor(230, 120, 0)
                         : p.fits ? QColor(40, 100, 200)
                                  : QColor(200, 40, 40);
        painter.setBrush(c);
        const double r = p.pareto ? 4.5 : 3.0;
        painter.drawEllipse(toScreen(p), r, r);
    }
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(text, 2));
    for (const auto& p : points_)
        if (std::find(selected_.begin(), selected_.end(), p.row) != selected_.end())
            painter.drawEllipse(toScreen(p), 7.0, 7.0);
    if (!points_.empty() && !paintedPoints_) {
        paintedPoints_ = true;
        emit painted();
    }
}

void SweepScatter::mousePressEvent(QMouseEvent* event) {
    const QPointF at = event->position();
    const SweepPoint* best = nullptr;
    double bestDistance = 12 * 12; // pixels, squared
    for (const auto& p : points_) {
        const QPointF d = toScreen(p) - at;
        const double distance = d.x() * d.x() + d.y() * d.y();
        if (distance < bestDistance) {
            bestDistance = distance;
            best = &p;
        }
    }
    if (best)
        emit pointClicked(best->row);
}

void SweepScatter::contextMenuEvent(QContextMenuEvent* event) {
    showSaveImageMenu(this, event, tr("sweep scatter"));
}

} // namespace tilescope::gui
