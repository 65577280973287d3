// The timeline canvas's input: wheel and keys (the shared chart navigation, plus shift-wheel
// scrolling and R for relative time), drag to pan, click to expand, pin or select, double-click
// to zoom to an event.
#include "TimelineCanvas.hpp"
#include "TimelineLayout.hpp"
#include "TimelineModel.hpp"
#include "canvas/ViewportNavigation.hpp"
#include "core/ImageSaving.hpp"

#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace tilescope::gui {
using namespace timeline_layout;
using Kind = TimelineModel::RowKind;

void TimelineCanvas::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    if (event->modifiers() & Qt::ShiftModifier) {
        scrollY_ -= steps * 3 * kTrackHeight;
        update();
        return;
    }
    if (navigation::wheel(viewport_, *event, plot_.left(), plot_.width()))
        notifyRange();
}

void TimelineCanvas::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return;
    pressPos_ = event->position();
    pressBegin_ = viewport_.begin();
    pressEnd_ = viewport_.end();
    pressScroll_ = scrollY_;
    moved_ = false;
    if (overview_.contains(pressPos_))
        drag_ = Drag::Overview;
    else if (plot_.contains(pressPos_))
        drag_ = (event->modifiers() & Qt::ShiftModifier) ? Drag::Select : Drag::Pan;
    else
        drag_ = Drag::None;
    if (drag_ == Drag::Overview) {
        const double at =
            (pressPos_.x() - overview_.left()) / overview_.width() * viewport_.extent();
        viewport_.shift(at - (viewport_.begin() + viewport_.span() / 2));
        notifyRange();
    }
}

void TimelineCanvas::mouseMoveEvent(QMouseEvent* event) {
    ImGuiCanvas::mouseMoveEvent(event);
    if (drag_ == Drag::None || !(event->buttons() & Qt::LeftButton))
        return;
    const QPointF d = event->position() - pressPos_;
    if (std::abs(d.x()) + std::abs(d.y()) > 3)
        moved_ = true;
    if (drag_ == Drag::Pan) {
        const double perPixel = (pressEnd_ - pressBegin_) / plot_.width();
        viewport_.setWindow(pressBegin_ - d.x() * perPixel, pressEnd_ - d.x() * perPixel);
        scrollY_ = pressScroll_ - d.y();
        notifyRange();
    } else if (drag_ == Drag::Select) {
        const double a = timeAtPixel(pressPos_.x()), b = timeAtPixel(event->position().x());
        selection_ = std::pair{model_.beginNs() + std::llround(std::min(a, b)),
                               model_.beginNs() + std::llround(std::max(a, b))};
        update();
    } else if (drag_ == Drag::Overview) {
        const double at =
            (event->position().x() - overview_.left()) / overview_.width() * viewport_.extent();
        viewport_.shift(at - (viewport_.begin() + viewport_.span() / 2));
        notifyRange();
    }
}

void TimelineCanvas::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return;
    const Drag drag = std::exchange(drag_, Drag::None);
    if (drag == Drag::Select && selection_ && moved_) {
        emit rangeSelected(selection_->first, selection_->second);
        return;
    }
    if (moved_ || drag == Drag::Overview)
        return;
    // A click: labels expand/collapse or pin; a click in the plot clears the selection.
    const QPointF p = event->position();
    if (p.x() < labelWidth_ && p.y() >= plot_.top()) {
        if (const Placed* placed = placedAt(p.y())) {
            const auto& row = model_.rows()[std::size_t(placed->row)];
            if (p.x() >= labelWidth_ - kPinWidth - 2)
                model_.setPinned(placed->row, !row.pinned);
            else if (!TimelineModel::isTrack(row.kind) && row.kind != Kind::Counter &&
                     row.kind != Kind::Heatmap)
                model_.setExpanded(placed->row, !row.expanded);
        }
    } else if (plot_.contains(p)) {
        // A click on an event selects it (its flows are drawn); elsewhere clears the selection.
        selection_.reset();
        const bool hadEvent = selectedEvent_.has_value();
        selectedEvent_.reset();
        if (const Placed* placed = placedAt(p.y())) {
            const auto it = model_.window().tracks.find(placed->row);
            const double ns = timeAtPixel(p.x());
            const double slack = viewport_.span() / std::max(plot_.width(), 1.0) * 3;
            if (it != model_.window().tracks.end())
                for (const auto& b : it->second)
                    if (!b.aggregated && ns >= relative(b.startNs) - slack &&
                        ns <= relative(b.endNs) + slack)
                        selectedEvent_ =
                            SelectedEvent{placed->row, b.startNs, b.endNs, b.eventId, b.nameId};
        }
        update();
        if (hadEvent || selectedEvent_)
            emit eventSelected();
    }
}

void TimelineCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
    const QPointF p = event->position();
    const Placed* placed = plot_.contains(p) ? placedAt(p.y()) : nullptr;
    if (!placed)
        return;
    const auto it = model_.window().tracks.find(placed->row);
    if (it == model_.window().tracks.end())
        return;
    const double ns = timeAtPixel(p.x());
    for (const auto& b : it->second)
        if (ns >= relative(b.startNs) && ns <= relative(b.endNs) && b.endNs > b.startNs) {
            const double margin = double(b.endNs - b.startNs) * 0.05;
            viewport_.setWindow(double(b.startNs - model_.beginNs()) - margin,
                                double(b.endNs - model_.beginNs()) + margin);
            notifyRange();
            return;
        }
}

void TimelineCanvas::keyPressEvent(QKeyEvent* event) {
    if (navigation::key(viewport_, event->key())) {
        notifyRange();
        return;
    }
    if (event->key() == Qt::Key_R) {
        setRelativeTime(!relative_);
        return;
    }
    ImGuiCanvas::keyPressEvent(event);
}

void TimelineCanvas::contextMenuEvent(QContextMenuEvent* event) {
    QMenu menu(this);
    menu.addAction(tr("Save image…"), this,
                   [this] { saveImageAs(this, grabFramebuffer(), tr("timeline")); });
    menu.exec(event->globalPos());
}

} // namespace tilescope::gui
