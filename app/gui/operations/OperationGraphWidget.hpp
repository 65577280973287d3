#pragma once

#include "OperationGraph.hpp"

#include <QColor>
#include <QPointF>
#include <QStaticText>
#include <QWidget>
#include <memory>
#include <vector>

namespace tilescope::gui {

/// Draws an OperationGraph: operations as boxes coloured by the chosen metric (a sequential ramp
/// on a log scale, with its legend), tensors as lines from producer to consumer, open layers as
/// frames. Wheel zooms around the cursor, drag pans, Home or double-click on empty space fits the
/// graph; a click selects a node, a double-click on a layer asks to open or close it. Level of
/// detail: names appear once boxes are wide enough to hold them, and with thousands of nodes the
/// edges of a zoomed-out graph are left out, so it never becomes a hairball. QPainter: a few
/// thousand boxes need no GPU canvas.
class OperationGraphWidget : public QWidget {
    Q_OBJECT
public:
    explicit OperationGraphWidget(QWidget* parent = nullptr);

    void setGraph(std::shared_ptr<const OperationGraph> graph);
    const OperationGraph* graph() const { return graph_.get(); }
    void setMetric(OperationGraph::Metric metric);
    OperationGraph::Metric metric() const { return metric_; }
    /// Outlines the node of operation `operation` (an index of the graph's operations; -1: none).
    void setSelectedOperation(int operation);
    /// Shows the whole graph.
    void fit();
    /// Zooms to `scale` (widget pixels per layout unit, clamped as the wheel clamps it) with
    /// layout point `centre` in the middle of the widget.
    void zoomTo(double scale, QPointF centre);
    /// Scrolls, at the current zoom, so that node `node` is in view (nothing when it is).
    void ensureVisible(int node);
    /// The whole layout's size in layout units (the widget's `scale()` maps them to pixels).
    QSizeF layoutSize() const;
    double scale() const { return scale_; }
    /// The colour of `value` on the ramp up to `maximum` (log scale).
    static QColor rampColour(std::uint64_t value, std::uint64_t maximum);
    /// Node under widget position `pos`, or -1.
    int nodeAt(const QPointF& pos) const;
    /// Where node `node` is drawn, in widget coordinates.
    QRectF nodeRect(int node) const;
    QSize sizeHint() const override { return {800, 600}; }

signals:
    void nodeClicked(int node);
    void layerToggleRequested(int operation);

protected:
    void paintEvent(QPaintEvent* event) override;
    /// "Save image…".
    void contextMenuEvent(QContextMenuEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    /// A node's two lines of text, elided to a box `width` pixels wide: kept per node until the
    /// width, the graph or the metric changes, so panning lays out no text again.
    struct Labels {
        int width = -1;
        QStaticText title, detail; ///< laid out once: a frame only places their glyphs
    };
    const Labels& labels(int node, int width, const QFont& bold, const QFont& normal) const;
    QPointF toWidget(double x, double y) const;
    void drawLegend(QPainter& p);

    std::shared_ptr<const OperationGraph> graph_;
    OperationGraph::Metric metric_ = OperationGraph::Cycles;
    int selectedNode_ = -1;
    int selectedOperation_ = -1;
    double scale_ = 1;
    QPointF offset_; // widget position of layout point (0, 0)
    bool fitted_ = false;
    bool dragging_ = false;
    QPointF pressPos_, pressOffset_;
    mutable std::vector<Labels> labels_;
};

} // namespace tilescope::gui
