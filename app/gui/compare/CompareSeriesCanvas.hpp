#pragma once

#include "CompareSeries.hpp"
#include "canvas/ChartCanvas.hpp"

#include <functional>
#include <memory>

namespace tilescope::gui {

/// The compare views' chart of two series over tiles or aligned steps, drawn from
/// CompareSeries::columns (one min/max envelope per pixel column, so 23,552 tiles or 200,000
/// steps cost one rectangle per column). Modes: Overlay draws source (blue) and target (orange)
/// on one axis; Lanes draws the source run above the target run, each on its own lane with the
/// same scale, the target's columns red where they got slower and green where faster;
/// Difference draws target − source around a zero line, red up (growth) and green down. Zoom
/// and pan as every ChartCanvas; canvases of one view share their window through
/// `windowChanged`/showWindow. The tooltip names the point under the mouse with both values.
class CompareSeriesCanvas : public ChartCanvas {
    Q_OBJECT
public:
    enum class Mode { Overlay, Lanes, Difference };
    explicit CompareSeriesCanvas(Mode mode, QWidget* parent = nullptr);

    /// Null shows `message` (loading, error) instead of a chart.
    void setSeries(std::shared_ptr<const CompareSeries> series);
    void setMessage(const QString& message);
    /// How values read (bytes or cycles); `binaryTicks` picks 1024-based axis ticks.
    void setValueFormat(std::function<QString(double)> format, bool binaryTicks);
    /// What a point is ("Tile 12 (IPU 0)", a step's identity), for the tooltip.
    void setPointLabel(std::function<QString(std::size_t)> label);
    const CompareSeries::Columns& lastColumns() const { return columns_; }

protected:
    void prepareFrame(const QRectF& plot) override;
    void drawChart(ImDrawList& list, const QRectF& plot) override;
    void drawOverlay(ImDrawList& list, const QRectF& plot) override;
    void clickedAt(double, Qt::KeyboardModifiers) override {}
    double yAxisMaximum() const override { return mode_ == Mode::Overlay ? yMax_ : 0.0; }
    QString formatY(double value) const override;
    double yTickUnit(double yMax) const override;
    double rightMargin() const override { return 96; }
    QString message() const override;

private:
    int columnAt(double plotX) const;
    void drawTooltip(int column);
    void drawOverlayChart(ImDrawList& list, const QRectF& plot);
    void drawLanes(ImDrawList& list, const QRectF& plot);
    void drawDifference(ImDrawList& list, const QRectF& plot);

    Mode mode_;
    std::shared_ptr<const CompareSeries> series_;
    QString message_;
    std::function<QString(double)> format_;
    std::function<QString(std::size_t)> label_;
    bool binaryTicks_ = true;
    CompareSeries::Columns columns_;
    std::uint32_t cachedFirst_ = 0, cachedEnd_ = 0;
    int cachedWidth_ = -1;
    bool dirty_ = true;
    double yMax_ = 1;
};

} // namespace tilescope::gui
