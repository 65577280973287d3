#pragma once

#include "ChartCanvas.hpp"

#include <cstdint>
#include <optional>

namespace tilescope::gui {

class LivenessModel;

/// The Liveness view's chart: memory summed over all tiles at each program step, always-live
/// bytes at the bottom and not-always-live bytes stacked on top. Zoomed out, each pixel column
/// shows the lowest not-always-live value of its steps solid and the range up to the highest
/// one lighter (from LivenessModel's pre-aggregated window). A click selects a step.
class LivenessCanvas : public ChartCanvas {
    Q_OBJECT
public:
    explicit LivenessCanvas(LivenessModel& model, QWidget* parent = nullptr);

    void setSelectedStep(std::optional<std::int64_t> step);

signals:
    void stepClicked(std::int64_t step);

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

    LivenessModel& model_;
    std::optional<std::int64_t> selected_;
};

} // namespace tilescope::gui
