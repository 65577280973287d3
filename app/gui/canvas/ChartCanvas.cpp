#include "ChartCanvas.hpp"

#include "AxisTicks.hpp"
#include "ViewportNavigation.hpp"

#include <QContextMenuEvent>
#include <QFileDialog>
#include <QImageWriter>
#include <QKeyEvent>
#include <QMenu>
#include <QMessageBox>
#include <QMouseEvent>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace tilescope::gui {
namespace {
constexpr double kLeftMargin = 76, kRightMargin = 14, kTopMargin = 12, kBottomMargin = 26;
constexpr double kDragThreshold = 4; // pixels before a press becomes a pan instead of a click
} // namespace

ChartCanvas::ChartCanvas(QWidget* parent) : ImGuiCanvas(parent) {
    setMinimumSize(320, 160);
}

void ChartCanvas::showWindow(double begin, double end) {
    viewport_.setWindow(begin, end);
    notifyWindow();
}

void ChartCanvas::notifyWindow() {
    emit windowChanged(viewport_.begin(), viewport_.end());
    update();
}

QString ChartCanvas::formatX(double value) const {
    return QString::number(std::llround(value));
}

double ChartCanvas::yTickUnit(double yMax) const {
    // Binary units: the largest power of 1024 not above the axis maximum.
    double unit = 1;
    while (unit * 1024 <= yMax)
        unit *= 1024;
    return unit;
}

double ChartCanvas::yToPixel(double value) const {
    const double yMax = yAxisMaximum();
    if (yMax <= 0)
        return plot_.bottom();
    return plot_.bottom() - value / yMax * plot_.height();
}

double ChartCanvas::xToPixel(double domain) const {
    return plot_.left() + viewport_.toPixel(domain, plot_.width());
}

double ChartCanvas::hoveredX() const {
    return viewport_.toDomain(hoverPosition().x() - plot_.left(), plot_.width());
}

void ChartCanvas::drawTextCentred(ImDrawList& list, const QPointF& centre, ImU32 col,
                                  const QString& text) {
    const QByteArray utf8 = text.toUtf8();
    const ImVec2 size = ImGui::CalcTextSize(utf8.constData());
    list.AddText(ImVec2(float(centre.x() - size.x / 2), float(centre.y() - size.y / 2)), col,
                 utf8.constData());
}

void ChartCanvas::drawFrame(ImDrawList& list, const QSizeF& size) {
    plot_ = QRectF(QPointF(kLeftMargin, kTopMargin),
                   QPointF(std::max(kLeftMargin + 10, size.width() - kRightMargin - rightMargin()),
                           std::max(kTopMargin + 10, size.height() - kBottomMargin)));
    prepareFrame(plot_); // also while a message shows: it is what requests the missing data
    const QString text = message();
    if (!text.isEmpty()) {
        drawTextCentred(list, QPointF(size.width() / 2, size.height() / 2),
                        colour(palette().color(QPalette::PlaceholderText)), text);
        return;
    }
    drawAxes(list);
    list.PushClipRect(ImVec2(float(plot_.left()), float(plot_.top()) - 1),
                      ImVec2(float(plot_.right()) + 1, float(plot_.bottom()) + 1), true);
    drawChart(list, plot_);
    if (range_) {
        // The selected range: shaded, with its edges, over whatever the chart drew.
        const float x0 = float(std::max(plot_.left(), xToPixel(range_->first)));
        const float x1 = float(std::min(plot_.right(), xToPixel(range_->second)));
        if (x1 >= x0) {
            const ImU32 edge = colour(palette().color(QPalette::Highlight));
            list.AddRectFilled(ImVec2(x0, float(plot_.top())),
                               ImVec2(std::max(x1, x0 + 1), float(plot_.bottom())),
                               colour(palette().color(QPalette::Highlight), 0.18));
            list.AddLine(ImVec2(x0, float(plot_.top())), ImVec2(x0, float(plot_.bottom())), edge);
            list.AddLine(ImVec2(x1, float(plot_.top())), ImVec2(x1, float(plot_.bottom())), edge);
        }
    }
    list.PopClipRect();
    const ImU32 axis = colour(palette().color(QPalette::Text), 0.6);
    list.AddLine(ImVec2(float(plot_.left()), float(plot_.bottom())),
                 ImVec2(float(plot_.right()), float(plot_.bottom())), axis);
    list.AddLine(ImVec2(float(plot_.left()), float(plot_.top())),
                 ImVec2(float(plot_.left()), float(plot_.bottom())), axis);
    drawOverlay(list, plot_);
}

void ChartCanvas::drawAxes(ImDrawList& list) {
    const QColor text = palette().color(QPalette::Text);
    const ImU32 label = colour(text, 0.85), grid = colour(text, 0.10);
    const float lineHeight = ImGui::GetTextLineHeight();
    const double yMax = yAxisMaximum();
    if (yMax > 0) {
        const int maxTicks = std::max(2, int(plot_.height() / (lineHeight * 2.5)));
        const double unit = yTickUnit(yMax);
        for (double tick : niceTicks(0, yMax / unit, maxTicks)) {
            const double v = tick * unit;
            const float y = float(yToPixel(v));
            list.AddLine(ImVec2(float(plot_.left()), y), ImVec2(float(plot_.right()), y), grid);
            const QByteArray s = formatY(v).toUtf8();
            const ImVec2 size = ImGui::CalcTextSize(s.constData());
            list.AddText(ImVec2(float(plot_.left()) - size.x - 6, y - size.y / 2), label,
                         s.constData());
        }
    }
    // Label width decides how many x ticks fit: measure the widest label.
    const QByteArray widest = formatX(viewport_.end()).toUtf8();
    const float labelWidth = ImGui::CalcTextSize(widest.constData()).x + 24;
    const int maxTicks = std::max(2, int(plot_.width() / labelWidth));
    for (double v : niceTicks(viewport_.begin(), viewport_.end(), maxTicks, true)) {
        const float x = float(xToPixel(v));
        if (x < plot_.left() - 0.5 || x > plot_.right() + 0.5)
            continue;
        list.AddLine(ImVec2(x, float(plot_.bottom())), ImVec2(x, float(plot_.bottom()) + 4), label);
        const QByteArray s = formatX(v).toUtf8();
        const ImVec2 size = ImGui::CalcTextSize(s.constData());
        // Keep edge labels inside the widget instead of cutting them off.
        const float left = std::clamp(x - size.x / 2, 0.0f, float(width()) - size.x);
        list.AddText(ImVec2(left, float(plot_.bottom()) + 5), label, s.constData());
    }
}

void ChartCanvas::wheelEvent(QWheelEvent* event) {
    if (!navigation::wheel(viewport_, *event, plot_.left(), plot_.width()))
        return;
    notifyWindow();
    event->accept();
}

void ChartCanvas::selectRange(double begin, double end) {
    if (end < begin)
        std::swap(begin, end);
    if (!(end > begin))
        return clearRange();
    range_ = std::make_pair(begin, end);
    update();
    emit rangeSelected(begin, end);
}

void ChartCanvas::clearRange() {
    if (!range_)
        return;
    range_.reset();
    update();
    emit rangeCleared();
}

void ChartCanvas::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return ImGuiCanvas::mousePressEvent(event);
    pressed_ = true;
    dragging_ = false;
    selectingRange_ = rangeSelectable_ && (event->modifiers() & Qt::ShiftModifier);
    pressPos_ = event->position();
    pressBegin_ = viewport_.begin();
    pressEnd_ = viewport_.end();
}

void ChartCanvas::mouseMoveEvent(QMouseEvent* event) {
    if (pressed_ && plot_.width() > 0) {
        const double dx = event->position().x() - pressPos_.x();
        if (std::abs(dx) > kDragThreshold)
            dragging_ = true;
        if (dragging_ && selectingRange_) {
            // Shown while dragging; announced on release.
            const double a = viewport_.toDomain(pressPos_.x() - plot_.left(), plot_.width());
            const double b =
                viewport_.toDomain(event->position().x() - plot_.left(), plot_.width());
            range_ = std::make_pair(std::min(a, b), std::max(a, b));
            update();
        } else if (dragging_) {
            const double shift = -dx / plot_.width() * (pressEnd_ - pressBegin_);
            viewport_.setWindow(pressBegin_ + shift, pressEnd_ + shift);
            notifyWindow();
        }
    }
    ImGuiCanvas::mouseMoveEvent(event);
}

void ChartCanvas::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !pressed_)
        return ImGuiCanvas::mouseReleaseEvent(event);
    pressed_ = false;
    if (dragging_ && selectingRange_ && range_)
        selectRange(range_->first, range_->second);
    else if (!dragging_ && plot_.contains(event->position())) {
        if (!(event->modifiers() & Qt::ShiftModifier))
            clearRange();
        clickedAt(viewport_.toDomain(event->position().x() - plot_.left(), plot_.width()),
                  event->modifiers());
    }
    dragging_ = false;
    selectingRange_ = false;
    update();
}

void ChartCanvas::keyPressEvent(QKeyEvent* event) {
    if (!navigation::key(viewport_, event->key()))
        return ImGuiCanvas::keyPressEvent(event);
    notifyWindow();
    event->accept();
}

void ChartCanvas::contextMenuEvent(QContextMenuEvent* event) {
    QMenu menu(this);
    menu.addAction(tr("Reset zoom"), this, [this] {
        viewport_.reset();
        notifyWindow();
    });
    menu.addAction(tr("Save chart as PNG…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save chart"), QString(),
                                                          tr("PNG images (*.png)"));
        if (path.isEmpty())
            return;
        QImageWriter writer(path, "png");
        if (!writer.write(grabFramebuffer()))
            QMessageBox::warning(this, tr("Save chart"),
                                 tr("Cannot write %1: %2").arg(path, writer.errorString()));
    });
    menu.exec(event->globalPos());
}

} // namespace tilescope::gui
