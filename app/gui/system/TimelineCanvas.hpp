#pragma once

#include "TimelineLayout.hpp"
#include "TimelineModel.hpp"
#include "canvas/HorizontalViewport.hpp"
#include "canvas/ImGuiCanvas.hpp"

#include <QRectF>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace tilescope::gui {

/// The system analyser's timeline: an overview strip of the whole trace with the visible window
/// marked, a time ruler (absolute time of day or relative to the trace start), then one row per
/// shown row of TimelineModel (labels on the left, pinned rows first): events as flame boxes
/// coloured by name with their names when they fit, instants as markers, pyramid columns shaded
/// by how busy they are, counters as filled area charts with their unit. It only draws what the
/// model's window holds. Interaction as in trace viewers: wheel zooms around the cursor (Shift:
/// scrolls rows), drag pans, Shift+drag selects a range, W/S or Up/Down zoom, A/D or Left/Right
/// pan, Home shows everything; clicking an event selects it and draws its flow arrows;
/// double-clicking an event zooms to it; clicking a label expands or
/// collapses its row, clicking its pin pins it; clicking the overview moves the window there.
class TimelineCanvas : public ImGuiCanvas {
    Q_OBJECT
public:
    explicit TimelineCanvas(TimelineModel& model, QWidget* parent = nullptr);

    HorizontalViewport& viewport() { return viewport_; }
    /// Shows [fromNs, toNs] (absolute) and repaints.
    void showRange(std::int64_t fromNs, std::int64_t toNs);
    std::int64_t visibleFromNs() const;
    std::int64_t visibleToNs() const;
    void setRelativeTime(bool relative);
    bool relativeTime() const { return relative_; }
    /// How counter graphs are drawn: each series as its own line (stepped, lightly filled), or
    /// the series of a graph stacked as areas, each on top of the ones before it.
    enum class ChartMode { Line, StackedArea };
    void setChartMode(ChartMode mode);
    ChartMode chartMode() const { return chartMode_; }
    /// Outlines one event (a search hit); row -1 clears.
    void setHighlight(int row, std::int64_t startNs, std::int64_t endNs);
    std::optional<std::pair<std::int64_t, std::int64_t>> selection() const { return selection_; }
    void clearSelection();
    /// The event selected by a click (row, start, end): outlined, with the flow arrows that
    /// start or end in it drawn.
    struct SelectedEvent {
        int row;
        std::int64_t startNs, endNs;
        std::int64_t eventId = 0; ///< 0 when not known (a device box)
        std::int64_t nameId = 0;
    };
    std::optional<SelectedEvent> selectedEvent() const { return selectedEvent_; }
    /// Where the plot and a shown row were last drawn (widget pixels); for tests.
    QRectF plotRect() const { return plot_; }
    std::optional<QRectF> rowRect(int row) const;
    /// The x pixel of an absolute time at the current zoom.
    double xOf(std::int64_t ns) const { return pixelAtTime(ns); }
    void selectEvent(int row, std::int64_t startNs, std::int64_t endNs, std::int64_t eventId = 0,
                     std::int64_t nameId = 0);
    /// Text for a time on the ruler and in tooltips.
    QString formatTime(std::int64_t ns) const;

signals:
    void visibleRangeChanged(std::int64_t fromNs, std::int64_t toNs);
    void rangeSelected(std::int64_t fromNs, std::int64_t toNs);
    /// A click selected an event, another one, or none (selectedEvent()).
    void eventSelected();

protected:
    void drawFrame(ImDrawList& list, const QSizeF& size) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    /// "Save image…" of the timeline as shown.
    void contextMenuEvent(QContextMenuEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    struct Placed {
        int row;
        float top, bottom;
    };
    void resetExtent();
    void layoutRows(float plotTop, float plotBottom);
    void drawOverview(ImDrawList& list);
    void drawRuler(ImDrawList& list);
    void drawRows(ImDrawList& list);
    void measureLabels(float canvasWidth);
    /// A relative time in the ruler's unit, for tick labels.
    QString formatRulerTime(std::int64_t ns) const;
    void drawTrack(ImDrawList& list, int row, const QRectF& r);
    void drawChart(ImDrawList& list, int row, const QRectF& r);
    void drawStackedChart(ImDrawList& list, int row, const QRectF& r,
                          const std::vector<std::vector<TimelineModel::Point>>& bands);
    void drawChartScale(ImDrawList& list, int row, const QRectF& r, double hi);
    void drawTooltip(int row, double ns);
    /// Heatmap rows (TimelineCanvasHeatmap.cpp): cells, legend, and the tooltip of a cell.
    void drawHeatmap(ImDrawList& list, int row, const QRectF& r);
    void drawHeatmapTooltip(int row, double ns);
    void drawFlows(ImDrawList& list);
    /// Vertical centre of the shown track of (file, thread) that has an event at `ns` (the
    /// deepest), else of its first shown track or its thread row; empty when none is shown.
    std::optional<float> threadY(int file, std::int64_t threadId, std::int64_t ns) const;
    float rowHeight(int row) const;
    const Placed* placedAt(double y) const;
    /// Nanoseconds after the model's begin at plot pixel x, and the pixel of an absolute time.
    double timeAtPixel(double x) const;
    double pixelAtTime(std::int64_t ns) const;
    double relative(std::int64_t ns) const;
    void notifyRange();

    TimelineModel& model_;
    HorizontalViewport viewport_; // nanoseconds after the model's beginNs
    QRectF plot_, overview_, ruler_;
    /// Width of the label column: wide enough for the longest row label (a process named
    /// "transformer_block_3" is not cut), between kLabelWidth and 40% of the canvas.
    float labelWidth_ = timeline_layout::kLabelWidth;
    float labelWanted_ = timeline_layout::kLabelWidth; // the longest label's needs
    std::size_t labelRows_ = std::size_t(-1);          // rows labelWanted_ was measured for
    /// The ruler's unit for relative times ("ms"), one for every tick of a frame.
    double rulerUnit_ = 0;
    const char* rulerUnitName_ = "ns";
    std::vector<Placed> placed_;
    double scrollY_ = 0;
    double contentHeight_ = 0;
    bool relative_ = true;
    ChartMode chartMode_ = ChartMode::Line;
    int highlightRow_ = -1;
    std::int64_t highlightStart_ = 0, highlightEnd_ = 0;
    std::optional<std::pair<std::int64_t, std::int64_t>> selection_;
    std::optional<SelectedEvent> selectedEvent_;
    enum class Drag { None, Pan, Select, Overview } drag_ = Drag::None;
    bool moved_ = false;
    QPointF pressPos_;
    double pressBegin_ = 0, pressEnd_ = 0, pressScroll_ = 0;
};

} // namespace tilescope::gui
