#pragma once

#include "canvas/ChartCanvas.hpp"
#include "tilescope/report/ProfileBlocks.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>

namespace tilescope::gui {

class ExecutionModel;

/// The Execution Trace chart: a run's cycles left to right, each pixel column a stacked bar of
/// the share of its cycles spent in compute, exchange, sync and stream copies (from
/// ExecutionModel's pre-aggregated window). Zoomed in far enough, columns are single steps and
/// the tooltip names the step, its phase, start, length and tile balance. In Flame mode it draws
/// one row per level of the program tree (root on top), each bar the cycles spent under one
/// program; in BSP mode one row per tile of the model's tile range, each step drawn as the
/// tile's own cycles in the phase colour followed by its wait for the slowest tile; in per-IPU
/// mode one row per IPU the same way with each IPU's cycles, or zoomed out one bar per pixel
/// column as high as the IPU's busy share of it; in Blocks mode one band per tile that recorded
/// lightweight-profiling blocks, nested blocks stacked. With a step filter, steps that do
/// not match are dimmed: flat columns draw their matching share in full colour over the dimmed
/// whole (ExecutionModel's exact matching cycles, so zoomed out too). Programs have the colour
/// the Program Tree shows them in (programColour); the selected program's bars (flame) or steps
/// (flat) are outlined. Shift+drag selects a cycle range (ChartCanvas::rangeSelected).
class ExecutionCanvas : public ChartCanvas {
    Q_OBJECT
public:
    explicit ExecutionCanvas(ExecutionModel& model, QWidget* parent = nullptr);

    static QColor phaseColour(int phase);
    /// Outlines the bars and steps of `programId` (none: no outline).
    void setSelectedProgram(std::optional<std::int64_t> programId);
    std::optional<std::int64_t> selectedProgram() const { return selectedProgram_; }

signals:
    /// A click on a column that shows one executed step: its program step.
    void stepClicked(std::int64_t stepId);
    /// A click on a flame bar: the program it stands for (and stepClicked for the step there).
    void programClicked(std::int64_t programId);

protected:
    void prepareFrame(const QRectF& plot) override;
    void drawChart(ImDrawList& list, const QRectF& plot) override;
    void drawOverlay(ImDrawList& list, const QRectF& plot) override;
    void clickedAt(double x, Qt::KeyboardModifiers modifiers) override;
    double yAxisMaximum() const override;
    double yTickUnit(double) const override { return 1.0; }
    QString formatY(double value) const override;
    QString formatX(double value) const override;
    double rightMargin() const override;
    QString message() const override;

private:
    void resetExtent();
    int columnAt(double cycle) const;
    /// Index of the step of `steps` (sorted by startCycle) that covers `cycle`, or -1.
    template <class Steps> static int stepIndexAt(const Steps& steps, double cycle) {
        auto it = std::upper_bound(steps.begin(), steps.end(), cycle, [](double c, const auto& s) {
            return c < double(s.startCycle);
        });
        if (it == steps.begin())
            return -1;
        --it;
        return cycle < double(it->startCycle + it->cycles) ? int(it - steps.begin()) : -1;
    }
    void drawTooltip(int column);
    void drawFlat(ImDrawList& list, const QRectF& plot);
    void drawFlame(ImDrawList& list, const QRectF& plot);
    void drawBsp(ImDrawList& list, const QRectF& plot);
    // BSP and per-IPU rows share one picture: the steps' extent as a waiting band, then each
    // row's own cycles of every step from the step's start (ExecutionCanvasRows.cpp).
    void drawWaitingBand(ImDrawList& list, const QRectF& plot, std::uint64_t firstCycle,
                         std::uint64_t endCycle);
    void drawStepRowBars(ImDrawList& list, const QRectF& plot, double rowHeight, double rowGap,
                         std::uint64_t startCycle, std::uint64_t cycles,
                         std::span<const std::uint64_t> rowCycles, std::uint32_t fill);
    void drawIpuRows(ImDrawList& list, const QRectF& plot); // ExecutionCanvasRows.cpp
    void drawIpuColumns(ImDrawList& list, const QRectF& plot);
    void drawBlockRows(ImDrawList& list, const QRectF& plot); // ExecutionCanvasBlocks.cpp
    /// "nested d" left of each band's deeper rows (the axis names the band's tile).
    void drawBlockRowLabels(ImDrawList& list, const QRectF& plot);
    /// The legend's lines for the current mode (what the colours stand for).
    QStringList legendNames() const;
    static QColor blockColour(report::BlockKind kind, const std::string& name);
    double flameRowHeight(const QRectF& plot) const;

    ExecutionModel& model_;
    std::optional<std::int64_t> selectedProgram_;
};

} // namespace tilescope::gui
