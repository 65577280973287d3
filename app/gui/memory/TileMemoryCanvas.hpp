#pragma once

#include "TileMemoryModel.hpp"
#include "canvas/ChartCanvas.hpp"
#include "core/TileSelection.hpp"

namespace tilescope::gui {

/// The Memory view's chart: bytes per tile over all tiles of all IPUs (in the model's tile order,
/// software or physical), one bar per tile when
/// zoomed in and one per pixel column when zoomed out (drawn from TileMemoryModel::columns: the
/// stacked means of the series plus a band up to the column's fullest tile). Shows IPU
/// boundaries, the per-tile memory limit, the selected tiles and a tooltip for the tile or
/// column under the mouse. Click selects a tile (a column when zoomed out), shift-click extends,
/// ctrl-click toggles.
class TileMemoryCanvas : public ChartCanvas {
    Q_OBJECT
public:
    explicit TileMemoryCanvas(TileMemoryModel& model, QWidget* parent = nullptr);

    void setSelection(const TileSelection& tiles);
    const TileSelection& selection() const { return selection_; }
    void setShowMaxMemory(bool show);

signals:
    void selectionChanged(const tilescope::gui::TileSelection& tiles);

protected:
    void prepareFrame(const QRectF& plot) override;
    void drawChart(ImDrawList& list, const QRectF& plot) override;
    void drawOverlay(ImDrawList& list, const QRectF& plot) override;
    void clickedAt(double x, Qt::KeyboardModifiers modifiers) override;
    double yAxisMaximum() const override { return yMax_; }
    QString formatY(double value) const override;
    double rightMargin() const override;
    QString message() const override;

private:
    void onModelChanged();
    /// Aggregates the visible tiles into columns unless the cached ones still match.
    void refreshColumns(double plotWidth);
    int columnAt(double x) const;
    void drawTooltip(int column);

    TileMemoryModel& model_;
    TileSelection selection_;
    std::uint32_t anchorTile_ = 0;
    bool showMaxMemory_ = true;
    TileMemoryModel::Columns columns_;
    std::vector<char> columnSelected_; // per column of columns_: holds a selected tile
    bool selectionDirty_ = true;
    // What columns_ was computed for, so frames that only move the mouse reuse it.
    std::uint32_t cachedFirst_ = 0, cachedEnd_ = 0;
    int cachedWidth_ = -1;
    bool dirty_ = true;
    double yMax_ = 0;
};

} // namespace tilescope::gui
