#pragma once

#include "InsightsModel.hpp"

#include <QWidget>

namespace tilescope::gui {

/// Histogram of memory per tile (tiles per bin of bytes) for the Insights view, with the
/// per-tile memory limit marked. Forty bars need no GPU canvas, so it paints with QPainter in
/// the palette's colours; hovering a bar tells its byte range and tile count.
class TileHistogramWidget : public QWidget {
    Q_OBJECT
public:
    explicit TileHistogramWidget(QWidget* parent = nullptr);

    void setHistogram(const InsightsModel::Histogram& histogram);
    QSize sizeHint() const override { return {480, 220}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    /// "Save image…".
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRectF plotRect() const;
    int binAt(const QPointF& pos) const;

    InsightsModel::Histogram histogram_;
};

} // namespace tilescope::gui
