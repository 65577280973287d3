#pragma once

#include "TileVariablesModel.hpp"

#include <QWidget>
#include <vector>

namespace tilescope::gui {

/// The Memory view's Variables graph: bytes per tile of a few chosen variables, tiles left to
/// right (software order), one colour per variable with a legend, so that a badly spread mapping
/// shows as a spike on a few tiles. Each pixel column shows the largest value of its tiles
/// (columnPeaks()), so a single full tile is never averaged away. Painted with QPainter: a few
/// series of at most one point per pixel need no GPU canvas.
class VariablesGraphWidget : public QWidget {
    Q_OBJECT
public:
    explicit VariablesGraphWidget(QWidget* parent = nullptr);

    void setSeries(VariableTileSeries series);
    const VariableTileSeries& series() const { return series_; }
    /// Per pixel column of `columns`, the largest bytes of `bytes` over the column's tiles.
    static std::vector<std::uint64_t> columnPeaks(const report::PerTile& bytes, int columns);
    /// Text shown instead of a graph (loading, nothing chosen); empty for none.
    void setMessage(const QString& message);
    QSize sizeHint() const override { return {640, 240}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    /// "Save image…".
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    VariableTileSeries series_;
    QString message_;
};

} // namespace tilescope::gui
