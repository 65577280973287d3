#pragma once

#include "HorizontalViewport.hpp"
#include "ImGuiCanvas.hpp"

#include <QRectF>
#include <functional>
#include <optional>
#include <utility>

namespace tilescope::gui {

/// An ImGuiCanvas with a zoomable x axis (tiles or program steps) and a value y axis. It owns the
/// interaction every chart shares, as in trace viewers: mouse wheel zooms around the cursor, drag
/// pans, W/S or Up/Down zoom, A/D or Left/Right pan, Home or 0 shows everything; a click without
/// drag is passed to clickedAt(); the context menu resets the zoom or saves the chart as PNG. It
/// also draws the axes, grid and messages, so subclasses only draw their series into the plot.
/// Charts that allow it (setRangeSelectable) select an x range with Shift+drag: it is drawn
/// shaded over the chart and announced with rangeSelected; a click without Shift clears it.
class ChartCanvas : public ImGuiCanvas {
    Q_OBJECT
public:
    explicit ChartCanvas(QWidget* parent = nullptr);

    HorizontalViewport& viewport() { return viewport_; }
    const HorizontalViewport& viewport() const { return viewport_; }
    /// Shows [begin, end) of the x domain and repaints.
    void showWindow(double begin, double end);
    /// The plot area of the last frame, in logical pixels (axes and legend are outside it).
    QRectF plotRect() const { return plot_; }
    /// Lets Shift+drag select an x range (off by default).
    void setRangeSelectable(bool selectable) { rangeSelectable_ = selectable; }
    /// The selected x range [begin, end), if any.
    std::optional<std::pair<double, double>> selectedRange() const { return range_; }
    /// Selects [begin, end) as a Shift+drag would (emits rangeSelected); an empty range clears.
    void selectRange(double begin, double end);
    void clearRange();

signals:
    void windowChanged(double begin, double end);
    /// A Shift+drag ended on [begin, end) of the x domain.
    void rangeSelected(double begin, double end);
    void rangeCleared();

protected:
    /// Called once per frame before anything is drawn: fetch or aggregate what the frame needs
    /// (so yAxisMaximum() is known before the axes are drawn).
    virtual void prepareFrame(const QRectF& plot) { Q_UNUSED(plot); }
    /// Draws the series inside `plot` (logical pixels); axes and grid are already drawn.
    virtual void drawChart(ImDrawList& list, const QRectF& plot) = 0;
    /// Draws anything outside the plot after the chart (legends, tooltips).
    virtual void drawOverlay(ImDrawList& list, const QRectF& plot) {
        Q_UNUSED(list);
        Q_UNUSED(plot);
    }
    /// Extra space right of the plot, for a legend.
    virtual double rightMargin() const { return 0; }
    /// A click (no drag) at x-domain position `x`.
    virtual void clickedAt(double x, Qt::KeyboardModifiers modifiers) = 0;
    /// Largest y value the axis must show; 0 draws no y axis.
    virtual double yAxisMaximum() const = 0;
    virtual QString formatY(double value) const = 0;
    virtual QString formatX(double value) const;
    /// Ticks are round multiples of this unit. The default, the largest power of 1024 below the
    /// maximum, suits bytes (labels read 200 KiB, not 195 KiB).
    virtual double yTickUnit(double yMax) const;
    /// Text shown centred instead of a chart (loading, errors, empty report); empty for none.
    virtual QString message() const { return {}; }

    double yToPixel(double value) const;
    double xToPixel(double domain) const;
    /// The x-domain value under the mouse in this frame's plot (meaningful while hasHover()).
    double hoveredX() const;
    void drawTextCentred(ImDrawList& list, const QPointF& centre, ImU32 col, const QString& text);

    void drawFrame(ImDrawList& list, const QSizeF& size) final;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    void drawAxes(ImDrawList& list);
    void notifyWindow();

    HorizontalViewport viewport_;
    QRectF plot_;
    bool rangeSelectable_ = false;
    bool selectingRange_ = false;
    std::optional<std::pair<double, double>> range_;
    bool pressed_ = false;
    bool dragging_ = false;
    QPointF pressPos_;
    double pressBegin_ = 0, pressEnd_ = 0;
};

} // namespace tilescope::gui
