// ExecutionCanvas's row views: the step-row bars BSP and per-IPU modes share, and the per-IPU rows.
#include "ExecutionCanvas.hpp"
#include "ExecutionModel.hpp"
#include "core/Format.hpp"

#include <algorithm>
#include <cmath>

namespace tilescope::gui {

void ExecutionCanvas::drawIpuColumns(ImDrawList& list, const QRectF& plot) {
    const IpuRows& rows = model_.window().ipu;
    const double rowH = plot.height() / double(rows.ipus);
    const ImU32 waiting = colour(phaseColour(ExecutionModel::Sync), 0.35);
    const ImU32 busy = colour(phaseColour(ExecutionModel::Compute));
    const auto& cols = rows.columns;
    const float left =
        std::max(float(xToPixel(double(cols.front().firstCycle))), float(plot.left()));
    const float right =
        std::min(float(xToPixel(double(cols.back().endCycle))), float(plot.right()));
    // Each IPU's row: waiting as the background, a bar per column as high as the IPU's busy share.
    // Neighbouring columns whose bars end on the same half pixel merge into one rectangle, so a
    // steady stretch costs one rectangle, not one per pixel.
    for (std::uint32_t ipu = 0; ipu < rows.ipus; ++ipu) {
        const double top = plot.top() + double(ipu) * rowH;
        const double height = std::max(1.0, rowH - 2);
        const float bottom = float(top + height);
        list.AddRectFilled(ImVec2(left, float(top)), ImVec2(right, bottom), waiting);
        float runX0 = 0, runX1 = -1, runTop = 0;
        auto flush = [&] {
            if (runX1 > runX0 && runTop < bottom)
                list.AddRectFilled(ImVec2(runX0, runTop), ImVec2(runX1, bottom), busy);
            runX1 = -1;
        };
        for (std::size_t c = 0; c < cols.size(); ++c) {
            const float x0 = float(xToPixel(double(cols[c].firstCycle)));
            const float x1 = std::max(float(xToPixel(double(cols[c].endCycle))), x0 + 0.5f);
            if (x1 < float(plot.left()) || x0 > float(plot.right()))
                continue;
            const float y =
                std::round(2.0f * float(top + height * (1 - rows.busyShare(c, ipu)))) / 2.0f;
            if (runX1 >= x0 - 0.5f && y == runTop) {
                runX1 = x1;
                continue;
            }
            flush();
            runX0 = x0;
            runX1 = x1;
            runTop = y;
        }
        flush();
    }
    if (!hasHover() || !plot.contains(hoverPosition()))
        return;
    const double cycle = hoveredX();
    auto it = std::upper_bound(cols.begin(), cols.end(), cycle, [](double x, const auto& col) {
        return x < double(col.firstCycle);
    });
    const auto ipu = std::uint32_t((hoverPosition().y() - plot.top()) / rowH);
    if (it == cols.begin() || ipu >= rows.ipus)
        return;
    const auto c = std::size_t(it - cols.begin() - 1);
    const auto& col = cols[c];
    if (cycle >= double(col.endCycle))
        return;
    list.AddRectFilled(ImVec2(float(xToPixel(double(col.firstCycle))), float(plot.top())),
                       ImVec2(std::max(float(xToPixel(double(col.endCycle))),
                                       float(xToPixel(double(col.firstCycle))) + 1),
                              float(plot.bottom())),
                       colour(palette().color(QPalette::Text), 0.15));
    auto line = [](const QString& t) { ImGui::TextUnformatted(t.toUtf8().constData()); };
    ImGui::BeginTooltip();
    line(tr("IPU %1, cycles %2–%3")
             .arg(formatCount(std::int64_t(ipu)), formatCount(std::int64_t(col.firstCycle)),
                  formatCount(std::int64_t(col.endCycle))));
    line(tr("Busy %1 of %2 cycles (%3), waiting for the slowest IPU the rest")
             .arg(formatCount(std::llround(rows.busyCycles(c, ipu))),
                  formatCount(std::int64_t(col.endCycle - col.firstCycle)),
                  formatPercent(rows.busyShare(c, ipu))));
    line(tr("%1 steps (pyramid level %2: buckets shared out between the pixels they cover)")
             .arg(formatCount(std::llround(col.steps)), formatCount(rows.lodLevel)));
    if (model_.stepFilter())
        line(tr("Zoomed out, per-IPU rows are not dimmed by the step filter"));
    ImGui::EndTooltip();
}

void ExecutionCanvas::drawWaitingBand(ImDrawList& list, const QRectF& plot,
                                      std::uint64_t firstCycle, std::uint64_t endCycle) {
    list.AddRectFilled(ImVec2(float(xToPixel(double(firstCycle))), float(plot.top())),
                       ImVec2(float(xToPixel(double(endCycle))), float(plot.bottom())),
                       colour(phaseColour(ExecutionModel::Sync), 0.35));
}

void ExecutionCanvas::drawStepRowBars(ImDrawList& list, const QRectF& plot, double rowHeight,
                                      double rowGap, std::uint64_t startCycle, std::uint64_t cycles,
                                      std::span<const std::uint64_t> rowCycles,
                                      std::uint32_t fill) {
    const float x0 = float(xToPixel(double(startCycle)));
    const float x1 = float(xToPixel(double(startCycle + cycles)));
    if (x1 < float(plot.left()) || x0 > float(plot.right()))
        return;
    const double barHeight = std::max(1.0, rowHeight - rowGap);
    for (std::size_t i = 0; i < rowCycles.size(); ++i) {
        if (rowCycles[i] == 0)
            continue;
        const float xb = std::max(float(xToPixel(double(startCycle + rowCycles[i]))), x0 + 0.5f);
        const float y0 = float(plot.top() + double(i) * rowHeight);
        list.AddRectFilled(ImVec2(x0, y0), ImVec2(xb, float(y0 + barHeight)), fill);
    }
    if (x1 - x0 > 4)
        list.AddLine(ImVec2(x0, float(plot.top())), ImVec2(x0, float(plot.bottom())),
                     colour(palette().color(QPalette::Text), 0.25));
}

void ExecutionCanvas::drawIpuRows(ImDrawList& list, const QRectF& plot) {
    const IpuRows& rows = model_.window().ipu;
    if (rows.lodLevel >= 0 && !rows.columns.empty() && rows.ipus > 0)
        return drawIpuColumns(list, plot);
    if (rows.steps.empty() || rows.ipus == 0)
        return;
    const double rowH = plot.height() / double(rows.ipus);
    const StepFilterIndex* filter = model_.stepFilter();
    drawWaitingBand(list, plot, rows.steps.front().startCycle,
                    rows.steps.back().startCycle + rows.steps.back().cycles);
    for (const auto& s : rows.steps) {
        const int phase = ExecutionModel::phaseFromName(s.phase);
        drawStepRowBars(
            list, plot, rowH, 2, s.startCycle, s.cycles, s.ipuCycles,
            colour(phaseColour(phase), filter && !filter->matches(s.stepId) ? 0.2 : 1.0));
    }
    if (!hasHover() || !plot.contains(hoverPosition()))
        return;
    const int at = stepIndexAt(rows.steps, hoveredX());
    const auto ipu = std::size_t((hoverPosition().y() - plot.top()) / rowH);
    if (at < 0 || ipu >= rows.ipus)
        return;
    const auto& s = rows.steps[std::size_t(at)];
    const std::uint64_t busy = ipu < s.ipuCycles.size() ? s.ipuCycles[ipu] : 0;
    auto line = [](const QString& t) { ImGui::TextUnformatted(t.toUtf8().constData()); };
    ImGui::BeginTooltip();
    line(tr("IPU %1, step %2 of the run (program step %3)")
             .arg(formatCount(std::int64_t(ipu)), formatCount(s.seq), formatCount(s.stepId)));
    line(tr("%1: %2 of the step's %3 cycles busy (%4), %5 waiting for the slowest IPU")
             .arg(ExecutionModel::phaseName(ExecutionModel::phaseFromName(s.phase)),
                  formatCount(std::int64_t(busy)), formatCount(std::int64_t(s.cycles)),
                  formatPercent(s.cycles ? double(busy) / double(s.cycles) : 0),
                  formatCount(std::int64_t(s.cycles - busy))));
    line(tr("Step from cycle %1").arg(formatCount(std::int64_t(s.startCycle))));
    if (filter && !filter->matches(s.stepId))
        line(tr("Does not match the step filter"));
    ImGui::EndTooltip();
}

} // namespace tilescope::gui
