#pragma once

#include <QWidget>
#include <cstdint>
#include <optional>
#include <vector>

namespace tilescope::gui {

/// One point of the scatter: a variant that compiled, with its first run's cycles and its
/// fullest tile's memory.
struct SweepPoint {
    int row = -1; ///< the variant's row in the SweepTableModel
    double peakTileBytes = 0;
    double cycles = 0;
    bool fits = true;
    bool pareto = false;
};

/// Cycles against peak tile memory, one dot per variant: variants that fit in blue, those that do
/// not in red, the Pareto front in orange joined by its staircase, the tile memory capacity as a
/// vertical line, the selected variants ringed. Drawn with QPainter from points handed to it (no
/// report access); a click selects the nearest point (`pointClicked`).
class SweepScatter : public QWidget {
    Q_OBJECT
public:
    explicit SweepScatter(QWidget* parent = nullptr);

    void setPoints(std::vector<SweepPoint> points, double capacityBytes);
    void setSelectedRows(const std::vector<int>& rows);
    /// True once a frame with the points has been painted (for the first-paint benchmark).
    bool paintedPoints() const { return paintedPoints_; }

signals:
    void pointClicked(int row);
    void painted();

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    /// "Save image…".
    void contextMenuEvent(QContextMenuEvent* event) override;
    QSize sizeHint() const override { return {480, 360}; }

private:
    QRectF plotArea() const;
    QPointF toScreen(const SweepPoint& p) const;

    std::vector<SweepPoint> points_;
    std::vector<int> selected_;
    double capacity_ = 0;
    double maxX_ = 1, maxY_ = 1;
    bool paintedPoints_ = false;
};

} // namespace tilescope::gui
