#pragma once

namespace tilescope::gui {

/// The visible window [begin, end) of a chart's x domain [0, extent): tiles for the Memory
/// canvas, program steps for the Liveness canvas. Zooming keeps the point under the cursor fixed,
/// panning moves by a fraction of the visible width, and every change is clamped so the window
/// stays inside the domain and never narrower than `minimumSpan` (one tile, a few steps).
class HorizontalViewport {
public:
    void setExtent(double extent, double minimumSpan = 1.0);
    double extent() const { return extent_; }
    double begin() const { return begin_; }
    double end() const { return end_; }
    double span() const { return end_ - begin_; }
    bool isFullyZoomedOut() const { return begin_ <= 0.0 && end_ >= extent_; }

    /// Shows [begin, end), clamped.
    void setWindow(double begin, double end);
    void reset() { setWindow(0.0, extent_); }
    /// factor < 1 zooms in; `anchor` (a domain position) stays where it is on screen.
    void zoom(double factor, double anchor);
    /// Moves by `fraction` of the visible span (negative: left).
    void pan(double fraction);
    /// Moves by an absolute domain distance.
    void shift(double delta);

    /// Domain position of pixel `x` in a plot `width` pixels wide, and back.
    double toDomain(double x, double width) const { return begin_ + x / width * span(); }
    double toPixel(double v, double width) const { return (v - begin_) / span() * width; }

private:
    void clamp();

    double extent_ = 1.0;
    double minimumSpan_ = 1.0;
    double begin_ = 0.0;
    double end_ = 1.0;
};

} // namespace tilescope::gui
