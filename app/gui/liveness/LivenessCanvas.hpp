#pragma once

#include "LivenessGroupSeries.hpp"
#include "canvas/ChartCanvas.hpp"

#include <cstdint>
#include <optional>

namespace tilescope::gui {

class LivenessModel;

/// The Liveness view's chart: memory summed over all tiles at each program step, always-live
/// bytes at the bottom and not-always-live bytes stacked on top. Zoomed out, each pixel column
/// shows the lowest not-always-live value of its steps solid and the range up to the highest
/// one lighter (from LivenessModel's pre-aggregated window). Grouped by IPU it draws one line per
/// IPU (always-live plus the highest not-always-live of each column); for selected tiles, the
/// same stacked chart for those tiles only. With "Include always-live" off the always-live band
/// is left out and the axis starts where not-always-live memory starts, so its changes fill the
/// chart instead of a few pixels above a constant. A click selects a step; shift-click picks the
/// step to compare it with.
class LivenessCanvas : public ChartCanvas {
    Q_OBJECT
public:
    explicit LivenessCanvas(LivenessModel& model, QWidget* parent = nullptr);

    void setSelectedStep(std::optional<std::int64_t> step);
    void setCompareStep(std::optional<std::int64_t> step);
    /// Draws always-live memory under the not-always-live bytes (on) or leaves it out (off).
    void setIncludeAlwaysLive(bool include);
    bool includesAlwaysLive() const { return includeAlwaysLive_; }

signals:
    void stepClicked(std::int64_t step);
    /// Shift-click: the second step of a comparison.
    void compareStepClicked(std::int64_t step);

protected:
    void prepareFrame(const QRectF& plot) override;
    void drawChart(ImDrawList& list, const QRectF& plot) override;
    void drawOverlay(ImDrawList& list, const QRectF& plot) override;
    void clickedAt(double x, Qt::KeyboardModifiers modifiers) override;
    double yAxisMaximum() const override;
    QString formatY(double value) const override;
    QString message() const override;

private:
    int pointAt(double step) const;
    void drawTooltip(int point);
    void drawGroups(ImDrawList& list, const QRectF& plot);
    void drawStepMarker(ImDrawList& list, const QRectF& plot, std::int64_t step, const QColor& c);
    /// Where not-always-live bytes start on the y axis: always-live bytes or 0 without them.
    double base(double alwaysLive) const { return includeAlwaysLive_ ? alwaysLive : 0.0; }

    LivenessModel& model_;
    std::optional<std::int64_t> selected_;
    std::optional<std::int64_t> compare_;
    bool includeAlwaysLive_ = true;
    double groupPeakNotAlwaysLive_ = 0; // highest not-always-live bytes of any group
    std::vector<LivenessGroupSeries::Column> const* groupColumns_ = nullptr;
};

} // namespace tilescope::gui
