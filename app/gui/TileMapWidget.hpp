#pragma once

#include "TileSelection.hpp"

#include <QImage>
#include <QPixmap>
#include <QWidget>
#include <cstdint>
#include <optional>

namespace tilescope::gui {

class TileMemoryModel;

/// The machine's floor plan coloured by memory used per tile (TileMemoryModel's totals under its
/// gaps setting): pale for empty, dark blue for full, red for tiles over their memory, yellow for
/// selected tiles. Layout, in software tile order (the report records no physical placement):
/// each IPU is a block of `columnsPerIpu` = ceil(sqrt(tiles per IPU)) columns, tile t of the IPU
/// at row t / columnsPerIpu, column t % columnsPerIpu (an Mk2 IPU of 1472 tiles is 39 x 38); the
/// IPUs are blocks in a near-square grid, IPU i at block row i / ipuColumns, block column
/// i % ipuColumns, one empty cell apart. The map is one pixel per tile in an image rebuilt only
/// when the data or selection changes, and scaled to the widget once per size, so a repaint of
/// 23,552 tiles is one pixmap copy.
/// Hovering shows a tile's figures; clicking selects it (shift extends, ctrl toggles).
class TileMapWidget : public QWidget {
    Q_OBJECT
public:
    struct Layout {
        std::uint32_t columnsPerIpu = 1, rowsPerIpu = 1, ipuColumns = 1, ipuRows = 1;
        std::uint32_t widthCells() const { return ipuColumns * (columnsPerIpu + 1) - 1; }
        std::uint32_t heightCells() const { return ipuRows * (rowsPerIpu + 1) - 1; }
    };
    static Layout layoutFor(std::uint32_t numIpus, std::uint32_t tilesPerIpu);
    /// Colour of a tile using `bytes` of `capacity`.
    static QColor colourFor(std::uint64_t bytes, std::uint64_t capacity);

    explicit TileMapWidget(const TileMemoryModel& model, QWidget* parent = nullptr);

    const Layout& layout() const { return layout_; }
    void setSelection(const TileSelection& tiles);
    const TileSelection& selection() const { return selection_; }
    /// Cell of a tile in the map (x, y in cells).
    QPoint cellOf(std::uint32_t tile) const;
    /// Tile under a point of the widget, if any.
    std::optional<std::uint32_t> tileAt(QPointF pos) const;
    /// Where the map is drawn in the widget.
    QRectF mapRect() const;

    QSize sizeHint() const override { return {480, 320}; }

signals:
    void selectionChanged(const tilescope::gui::TileSelection& tiles);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    void rebuild();

    const TileMemoryModel& model_;
    Layout layout_;
    TileSelection selection_;
    QImage image_;
    QPixmap scaled_; // image_ at the size of mapRect(), made on the first paint after a change
};

} // namespace tilescope::gui
