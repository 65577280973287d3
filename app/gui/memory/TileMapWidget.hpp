#pragma once

#include "core/TileSelection.hpp"

#include <QImage>
#include <QPixmap>
#include <QWidget>
#include <cstdint>
#include <optional>
#include <vector>

namespace tilescope::gui {

class TileMemoryModel;

/// The machine's floor plan coloured by memory used per tile (TileMemoryModel's totals under its
/// gaps setting): pale for empty, dark blue for full, red for tiles over their memory, yellow for
/// selected tiles. Each IPU is a block, the blocks one empty cell apart in a grid as near square
/// as the blocks allow, IPU i at block row i / ipuColumns, block column i % ipuColumns. With the
/// report's tile placement a block is the IPU's die grid and each tile sits in its cell (an Mk2
/// die as simulated is 23 columns x 64 rows); without one, tiles fill a block of
/// ceil(sqrt(tiles per IPU)) columns row by row in software order. The map is one pixel per tile
/// in an image rebuilt only when the data or selection changes, and scaled to the widget once
/// per size, so a repaint of 23,552 tiles is one pixmap copy.
/// Hovering shows a tile's figures; clicking selects it (shift extends, ctrl toggles).
class TileMapWidget : public QWidget {
    Q_OBJECT
public:
    struct Layout {
        std::uint32_t columnsPerIpu = 1, rowsPerIpu = 1, ipuColumns = 1, ipuRows = 1;
        std::uint32_t widthCells() const { return ipuColumns * (columnsPerIpu + 1) - 1; }
        std::uint32_t heightCells() const { return ipuRows * (rowsPerIpu + 1) - 1; }
    };
    /// Blocks of near-square shape for reports without a tile placement.
    static Layout layoutFor(std::uint32_t numIpus, std::uint32_t tilesPerIpu);
    /// Blocks of `columns` x `rows` cells (the die grid of a tile placement).
    static Layout dieLayout(std::uint32_t numIpus, std::uint32_t columns, std::uint32_t rows);
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
    /// "Save image…".
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;

private:
    void rebuild();

    const TileMemoryModel& model_;
    Layout layout_;
    TileSelection selection_;
    QImage image_;
    std::vector<std::int32_t> cellTile_; // per image pixel: the tile drawn there, or -1
    QPixmap scaled_; // image_ at the size of mapRect(), made on the first paint after a change
};

} // namespace tilescope::gui
