#include "OperationGraphWidget.hpp"

#include "core/Format.hpp"
#include "core/ImageSaving.hpp"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace tilescope::gui {
namespace {

// Layout units: a cell per (rank, column), a box inside it.
constexpr double kCellWidth = 180, kCellHeight = 70, kBoxWidth = 150, kBoxHeight = 42;
constexpr double kMargin = 24;
// Beyond this many edges a zoomed-out graph draws none (boxes narrower than kEdgeMinBox).
constexpr std::size_t kManyEdges = 2000;
constexpr double kEdgeMinBox = 24, kLabelMinBox = 70;
// Boxes narrower than this are drawn as plain rectangles (an outline would cover them).
constexpr double kPlainBox = 6;
// Zoom limits: the whole of a 10,000-row chain fits at the smallest; boxes stay readable.
constexpr double kMinScale = 0.01, kMaxScale = 4.0;

QString metricText(OperationGraph::Metric m, std::uint64_t v) {
    return m == OperationGraph::Cycles ? QObject::tr("%1 cycles").arg(formatCount(std::int64_t(v)))
                                       : formatBytes(double(v));
}

/// `a` blended towards `b` by `t` (0: a, 1: b), opaque: a translucent pen or fill is stroked on
/// QPainter's slow path (an antialiased curve in a translucent pen costs about 0.5 ms).
QColor mixed(const QColor& a, const QColor& b, double t) {
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

} // namespace

OperationGraphWidget::OperationGraphWidget(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumSize(320, 240);
}

void OperationGraphWidget::setGraph(std::shared_ptr<const OperationGraph> graph) {
    const bool first = !graph_;
    graph_ = std::move(graph);
    labels_.clear();
    selectedNode_ = graph_ ? graph_->nodeOf(selectedOperation_) : -1;
    if (first)
        fitted_ = false;
    update();
}

void OperationGraphWidget::setMetric(OperationGraph::Metric metric) {
    metric_ = metric;
    labels_.clear();
    update();
}

void OperationGraphWidget::setSelectedOperation(int operation) {
    selectedOperation_ = operation;
    selectedNode_ = graph_ ? graph_->nodeOf(operation) : -1;
    update();
}

void OperationGraphWidget::fit() {
    if (!graph_ || width() <= 0 || height() <= 0)
        return;
    const double w = std::max(1, graph_->widestRank()) * kCellWidth;
    const double h = std::max(1, graph_->ranks()) * kCellHeight;
    scale_ = std::clamp(std::min((width() - 2 * kMargin) / w, (height() - 2 * kMargin) / h),
                        kMinScale, 1.5);
    offset_ = QPointF((width() - w * scale_) / 2, kMargin);
    fitted_ = true;
    update();
}

QSizeF OperationGraphWidget::layoutSize() const {
    if (!graph_)
        return {};
    return {std::max(1, graph_->widestRank()) * kCellWidth,
            std::max(1, graph_->ranks()) * kCellHeight};
}

void OperationGraphWidget::zoomTo(double scale, QPointF centre) {
    scale_ = std::clamp(scale, kMinScale, kMaxScale);
    offset_ = QPointF(width() / 2.0, height() / 2.0) - centre * scale_;
    fitted_ = true;
    update();
}

void OperationGraphWidget::ensureVisible(int node) {
    if (!graph_ || node < 0 || std::size_t(node) >= graph_->nodes().size())
        return;
    if (!fitted_)
        fit();
    if (rect().contains(nodeRect(node).toAlignedRect()))
        return;
    const auto& n = graph_->nodes()[std::size_t(node)];
    zoomTo(scale_, QPointF((n.column + 0.5) * kCellWidth, (n.rank + 0.5) * kCellHeight));
}

QColor OperationGraphWidget::rampColour(std::uint64_t value, std::uint64_t maximum) {
    // A sequential ramp, light for little and dark for much: it reads on light and dark
    // palettes, and a log scale keeps the small operations apart from each other.
    static const QColor stops[] = {QColor(0xff, 0xf2, 0xb8), QColor(0xfd, 0xc4, 0x6a),
                                   QColor(0xf2, 0x80, 0x3a), QColor(0xd6, 0x40, 0x4a),
                                   QColor(0x8b, 0x1f, 0x5e)};
    const double t = maximum > 0 ? std::log1p(double(value)) / std::log1p(double(maximum)) : 0;
    const double at = std::clamp(t, 0.0, 1.0) * 4;
    const int i = std::min(3, int(at));
    const double f = at - i;
    const QColor& a = stops[i];
    const QColor& b = stops[i + 1];
    return QColor(int(a.red() + (b.red() - a.red()) * f),
                  int(a.green() + (b.green() - a.green()) * f),
                  int(a.blue() + (b.blue() - a.blue()) * f));
}

QPointF OperationGraphWidget::toWidget(double x, double y) const {
    return offset_ + QPointF(x, y) * scale_;
}

QRectF OperationGraphWidget::nodeRect(int node) const {
    const auto& n = graph_->nodes()[std::size_t(node)];
    const QPointF topLeft = toWidget(n.column * kCellWidth + (kCellWidth - kBoxWidth) / 2,
                                     n.rank * kCellHeight + (kCellHeight - kBoxHeight) / 2);
    return QRectF(topLeft, QSizeF(kBoxWidth, kBoxHeight) * scale_);
}

int OperationGraphWidget::nodeAt(const QPointF& pos) const {
    if (!graph_)
        return -1;
    // Only the row under the point can hold it (boxes stay inside their cells).
    const int rank = int(std::floor((pos.y() - offset_.y()) / (kCellHeight * scale_)));
    for (int i : graph_->nodesInRanks(rank, rank))
        if (nodeRect(i).contains(pos))
            return i;
    return -1;
}

void OperationGraphWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    if (!graph_ || graph_->nodes().empty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter,
                   graph_ ? tr("This report records no operations.") : tr("Loading operations…"));
        return;
    }
    if (!fitted_)
        fit();
    const auto& nodes = graph_->nodes();
    const double box = kBoxWidth * scale_;
    // Level of detail: boxes of a few pixels are plain filled rectangles, without antialiasing
    // or outline; only the rows on screen are visited (the graph indexes nodes and edges by row).
    const bool tiny = box < kPlainBox;
    p.setRenderHint(QPainter::Antialiasing, !tiny);
    const double row = kCellHeight * scale_;
    const int firstRank = int(std::floor(-offset_.y() / row)) - 1;
    const int lastRank = int(std::ceil((height() - offset_.y()) / row)) + 1;
    // Open layers: frames behind their nodes, outer ones first; only those on screen (a dashed
    // outline of a frame thousands of pixels tall costs its whole length to draw).
    // Opaque fills, a shade darker per nesting level: blending a translucent fill over the whole
    // widget costs more than every box on it.
    auto frameFill = [&](int depth) {
        return mixed(pal.color(QPalette::Base), pal.color(QPalette::Highlight),
                     std::min(0.3, 0.06 * (depth + 1)));
    };
    QColor frameLine = pal.color(QPalette::Mid);
    for (const auto& f : graph_->frames()) {
        const QPointF a = toWidget(f.firstColumn * kCellWidth + 4, f.firstRank * kCellHeight + 2);
        const QPointF b =
            toWidget((f.lastColumn + 1) * kCellWidth - 4, (f.lastRank + 1) * kCellHeight - 2);
        const QRectF frame(a, b);
        if (!rect().intersects(frame.toAlignedRect()))
            continue;
        p.setPen(QPen(frameLine, 1));
        p.setBrush(frameFill(f.depth));
        p.drawRect(frame.intersected(QRectF(rect()).adjusted(-2, -2, 2, 2)));
        if (box >= kLabelMinBox && rect().contains(a.toPoint())) {
            p.setPen(pal.color(QPalette::PlaceholderText));
            p.drawText(QRectF(a + QPointF(6, 1), QSizeF(b.x() - a.x() - 12, 14)),
                       Qt::AlignLeft | Qt::AlignTop, QString::fromStdString(f.name));
        }
    }
    // Edges: producer's bottom to consumer's top; left out when dense and zoomed out.
    if (graph_->edges().size() <= kManyEdges || box >= kEdgeMinBox) {
        QColor edge = pal.color(QPalette::Text);
        edge = mixed(pal.color(QPalette::Base), edge, 0.45);
        p.setPen(QPen(edge, std::max(0.6, std::min(1.5, scale_ * 1.5))));
        p.setBrush(Qt::NoBrush);
        const QRectF visible = rect();
        for (int index : graph_->edgesInRanks(firstRank, lastRank)) {
            const auto& e = graph_->edges()[std::size_t(index)];
            const QRectF from = nodeRect(e.from), to = nodeRect(e.to);
            const QPointF a(from.center().x(), from.bottom()), b(to.center().x(), to.top());
            if (!visible.intersects(QRectF(a, b).normalized().adjusted(-1, -1, 1, 1)))
                continue;
            if (std::abs(a.x() - b.x()) < 1) { // straight down: no curve to stroke
                p.drawLine(a, b);
                continue;
            }
            QPainterPath path(a);
            const double bend = std::max(8.0, (b.y() - a.y()) / 2);
            path.cubicTo(a + QPointF(0, bend), b - QPointF(0, bend), b);
            p.drawPath(path);
        }
    }
    // Nodes.
    const std::uint64_t top = graph_->maximum(metric_);
    const QFont normal = font();
    QFont bold = normal;
    bold.setBold(true);
    for (int i : graph_->nodesInRanks(firstRank, lastRank)) {
        const QRectF r = nodeRect(i);
        if (!rect().intersects(r.toAlignedRect()))
            continue;
        const auto& n = nodes[std::size_t(i)];
        const QColor fill = rampColour(n.value(metric_), top);
        if (tiny) { // at least a pixel each, so none disappears
            p.fillRect(QRectF(r.topLeft(), r.size().expandedTo(QSizeF(1, 1))), fill);
            continue;
        }
        p.setBrush(fill);
        p.setPen(QPen(pal.color(QPalette::Text), n.collapsed ? 2.0 : 0.8,
                      n.collapsed ? Qt::SolidLine : Qt::SolidLine));
        // Rounded corners only where they show: sub-pixel arcs are slow to stroke.
        const double radius = std::min(6.0, 6 * scale_);
        if (radius >= 2)
            p.drawRoundedRect(r, radius, radius);
        else
            p.drawRect(r);
        if (n.collapsed && box >= kEdgeMinBox) // a second edge: a stack of operations
            p.drawLine(r.bottomLeft() + QPointF(3, 3), r.bottomRight() + QPointF(3, 3));
        if (box >= kLabelMinBox) {
            // Dark text on the light end of the ramp, light text on the dark end.
            p.setPen(fill.lightnessF() > 0.55 ? QColor(0x20, 0x20, 0x20)
                                              : QColor(0xf8, 0xf8, 0xf8));
            const QRectF inner = r.adjusted(6, 2, -6, -2);
            const Labels& text = labels(i, int(inner.width()), bold, normal);
            // Each line centred in its half of the box.
            const double half = inner.height() / 2;
            p.setFont(bold);
            p.drawStaticText(
                QPointF(inner.left(), inner.top() + (half - text.title.size().height()) / 2),
                text.title);
            p.setFont(normal);
            p.drawStaticText(QPointF(inner.left(),
                                     inner.center().y() + (half - text.detail.size().height()) / 2),
                             text.detail);
        }
    }
    if (selectedNode_ >= 0 && std::size_t(selectedNode_) < nodes.size()) {
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(pal.color(QPalette::Highlight), 3));
        p.drawRoundedRect(nodeRect(selectedNode_).adjusted(-3, -3, 3, 3), 7, 7);
    }
    drawLegend(p);
}

const OperationGraphWidget::Labels&
OperationGraphWidget::labels(int node, int width, const QFont& bold, const QFont& normal) const {
    if (labels_.size() != graph_->nodes().size())
        labels_.assign(graph_->nodes().size(), Labels{});
    Labels& l = labels_[std::size_t(node)];
    if (l.width == width)
        return l;
    const auto& n = graph_->nodes()[std::size_t(node)];
    const QString title =
        n.collapsed ? QStringLiteral("▸ %1 (%2)").arg(QString::fromStdString(n.name)).arg(n.members)
                    : QString::fromStdString(n.name);
    const QString detail =
        (n.layer.empty() ? QString() : QString::fromStdString(n.layer) + QStringLiteral(" · ")) +
        metricText(metric_, n.value(metric_));
    l.width = width;
    l.title = QStaticText(QFontMetrics(bold).elidedText(title, Qt::ElideMiddle, width));
    l.detail = QStaticText(QFontMetrics(normal).elidedText(detail, Qt::ElideRight, width));
    for (QStaticText* t : {&l.title, &l.detail}) {
        t->setTextFormat(Qt::PlainText);
        t->setPerformanceHint(QStaticText::AggressiveCaching);
    }
    l.title.prepare(QTransform(), bold);
    l.detail.prepare(QTransform(), normal);
    return l;
}

void OperationGraphWidget::drawLegend(QPainter& p) {
    const std::uint64_t top = graph_->maximum(metric_);
    const QString title = metric_ == OperationGraph::Cycles   ? tr("Cycles (log scale)")
                          : metric_ == OperationGraph::Memory ? tr("Variable memory (log scale)")
                                                              : tr("Code (log scale)");
    const int w = 180, h = 12;
    const QRect area(width() - w - 16, 10, w, h);
    QColor back = palette().color(QPalette::Base);
    back.setAlphaF(0.9f);
    p.setPen(Qt::NoPen);
    p.fillRect(area.adjusted(-8, -4, 8, 38), back);
    for (int x = 0; x < w; ++x) {
        const double t = double(x) / (w - 1);
        const auto v = std::uint64_t(std::expm1(t * std::log1p(double(top))));
        p.fillRect(QRect(area.left() + x, area.top(), 1, h), rampColour(v, top));
    }
    p.setPen(palette().color(QPalette::Text));
    p.drawRect(area.adjusted(0, 0, -1, -1));
    p.drawText(QRect(area.left(), area.bottom() + 2, w, 14), Qt::AlignLeft, QStringLiteral("0"));
    p.drawText(QRect(area.left(), area.bottom() + 2, w, 14), Qt::AlignRight,
               metricText(metric_, top));
    p.drawText(QRect(area.left(), area.bottom() + 16, w, 14), Qt::AlignHCenter, title);
}

void OperationGraphWidget::wheelEvent(QWheelEvent* event) {
    const double factor = std::pow(1.0015, event->angleDelta().y());
    const double next = std::clamp(scale_ * factor, kMinScale, kMaxScale);
    const QPointF at = event->position();
    offset_ = at - (at - offset_) * (next / scale_);
    scale_ = next;
    update();
    event->accept();
}

void OperationGraphWidget::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    dragging_ = false;
    pressPos_ = event->position();
    pressOffset_ = offset_;
}

void OperationGraphWidget::mouseMoveEvent(QMouseEvent* event) {
    if (event->buttons() & Qt::LeftButton) {
        const QPointF d = event->position() - pressPos_;
        if (dragging_ || std::abs(d.x()) + std::abs(d.y()) > 4) {
            dragging_ = true;
            offset_ = pressOffset_ + d;
            update();
        }
    }
}

void OperationGraphWidget::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return QWidget::mouseReleaseEvent(event);
    if (!dragging_) {
        const int node = nodeAt(event->position());
        if (node >= 0) {
            selectedNode_ = node;
            selectedOperation_ = graph_->nodes()[std::size_t(node)].operation;
            update();
            emit nodeClicked(node);
        }
    }
    dragging_ = false;
}

void OperationGraphWidget::mouseDoubleClickEvent(QMouseEvent* event) {
    const int node = nodeAt(event->position());
    if (node < 0) {
        fit();
        return;
    }
    const int operation = graph_->nodes()[std::size_t(node)].operation;
    if (graph_->isLayer(operation))
        emit layerToggleRequested(operation);
}

void OperationGraphWidget::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Home || event->key() == Qt::Key_0) {
        fit();
        return;
    }
    QWidget::keyPressEvent(event);
}

void OperationGraphWidget::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (!fitted_)
        update();
}

bool OperationGraphWidget::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip || !graph_)
        return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const int node = nodeAt(help->pos());
    if (node < 0) {
        QToolTip::hideText();
        return true;
    }
    const auto& n = graph_->nodes()[std::size_t(node)];
    QString text = QStringLiteral("<b>%1</b>").arg(QString::fromStdString(n.name).toHtmlEscaped());
    if (!n.layer.empty())
        text += QStringLiteral(" (%1)").arg(QString::fromStdString(n.layer).toHtmlEscaped());
    text += QStringLiteral("<br>%1").arg(QString::fromStdString(n.path).toHtmlEscaped());
    if (n.collapsed)
        text += tr("<br>a layer of %1 operations (double-click to open)").arg(n.members);
    text += tr("<br>%1 cycles · %2 variables · %3 code%4")
                .arg(formatCount(std::int64_t(n.cycles)), formatBytes(double(n.memory)),
                     formatBytes(double(n.code)),
                     n.collapsed ? tr(" (with everything inside)") : QString());
    for (const auto& in : n.inputs)
        text += tr("<br>in: %1").arg(QString::fromStdString(in).toHtmlEscaped());
    for (const auto& out : n.outputs)
        text += tr("<br>out: %1").arg(QString::fromStdString(out).toHtmlEscaped());
    QToolTip::showText(help->globalPos(), text, this);
    return true;
}

void OperationGraphWidget::contextMenuEvent(QContextMenuEvent* event) {
    showSaveImageMenu(this, event, tr("operations graph"));
}

} // namespace tilescope::gui
