#include "HorizontalViewport.hpp"

#include <algorithm>

namespace tilescope::gui {

void HorizontalViewport::setExtent(double extent, double minimumSpan) {
    extent_ = std::max(extent, 1e-9);
    minimumSpan_ = std::clamp(minimumSpan, 1e-9, extent_);
    reset();
}

void HorizontalViewport::setWindow(double begin, double end) {
    begin_ = std::min(begin, end);
    end_ = std::max(begin, end);
    clamp();
}

void HorizontalViewport::zoom(double factor, double anchor) {
    const double newSpan = std::clamp(span() * factor, minimumSpan_, extent_);
    const double t = span() > 0 ? (anchor - begin_) / span() : 0.5;
    begin_ = anchor - t * newSpan;
    end_ = begin_ + newSpan;
    clamp();
}

void HorizontalViewport::pan(double fraction) {
    shift(fraction * span());
}

void HorizontalViewport::shift(double delta) {
    begin_ += delta;
    end_ += delta;
    clamp();
}

void HorizontalViewport::clamp() {
    double s = std::clamp(end_ - begin_, minimumSpan_, extent_);
    begin_ = std::clamp(begin_, 0.0, extent_ - s);
    end_ = begin_ + s;
}

} // namespace tilescope::gui
