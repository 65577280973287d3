#pragma once

#include "TileMemoryMapModel.hpp"

#include <QWidget>
#include <vector>

namespace tilescope::gui {

/// The Memory map tab's drawing of one tile: addresses left to right from the bottom of the
/// tile's memory to its end, the regions as bands with their boundaries, and each block at its
/// address coloured by category. Always-live blocks share the first lane; not-always-live ones
/// that reuse addresses (their live steps do not overlap) take further lanes. The unused space
/// below each region's highest block, which Poplar counts as gaps, is hatched. A tooltip names
/// the block under the pointer. Painted with QPainter from the model's map: no SQL here.
class TileMemoryMapWidget : public QWidget {
    Q_OBJECT
public:
    explicit TileMemoryMapWidget(const TileMemoryMapModel& model, QWidget* parent = nullptr);

    /// The lane of each block (same order as the map's blocks).
    const std::vector<int>& lanes() const { return lanes_; }
    /// The index of the block drawn at `pos`, or -1.
    int blockAt(QPointF pos) const;
    QSize sizeHint() const override { return {720, 240}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
    /// "Save image…".
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    void relayout();
    QRectF plotRect() const;
    double xOf(std::uint64_t address) const;
    QRectF blockRect(std::size_t block) const;

    const TileMemoryMapModel& model_;
    std::vector<int> lanes_;
    int laneCount_ = 1;
};

} // namespace tilescope::gui
