// ExecutionCanvas's per-IPU rows (kept apart from the flat, flame and BSP drawing).
#include "ExecutionCanvas.hpp"
#include "ExecutionModel.hpp"
#include "Format.hpp"

#include <algorithm>

namespace tilescope::gui {

int ExecutionCanvas::ipuStepAt(double cycle) const {
    const auto& steps = model_.window().ipu.steps;
    auto it = std::upper_bound(steps.begin(), steps.end(), cycle,
                               [](double c, const auto& s) { return c < double(s.startCycle); });
    if (it == steps.begin())
        return -1;
    --it;
    return cycle < double(it->startCycle + it->cycles) ? int(it - steps.begin()) : -1;
}

void ExecutionCanvas::drawIpuRows(ImDrawList& list, const QRectF& plot) {
    const IpuRows& rows = model_.window().ipu;
    if (rows.steps.empty() || rows.ipus == 0)
        return;
    const double rowH = plot.height() / double(rows.ipus);
    const StepFilterIndex* filter = model_.stepFilter();
    const ImU32 waiting = colour(phaseColour(ExecutionModel::Sync), 0.35);
    const ImU32 boundary = colour(palette().color(QPalette::Text), 0.25);
    // As in the BSP bands: waiting is the background, each IPU's own cycles are drawn over it.
    const float left = float(xToPixel(double(rows.steps.front().startCycle)));
    const float right =
        float(xToPixel(double(rows.steps.back().startCycle) + double(rows.steps.back().cycles)));
    list.AddRectFilled(ImVec2(left, float(plot.top())), ImVec2(right, float(plot.bottom())),
                       waiting);
    for (const auto& s : rows.steps) {
        const float x0 = float(xToPixel(double(s.startCycle)));
        const float x1 = float(xToPixel(double(s.startCycle + s.cycles)));
        if (x1 < float(plot.left()) || x0 > float(plot.right()))
            continue;
        const int phase = ExecutionModel::phaseFromName(s.phase);
        const ImU32 fill =
            colour(phaseColour(phase), filter && !filter->matches(s.stepId) ? 0.2 : 1.0);
        for (std::size_t i = 0; i < s.ipuCycles.size(); ++i) {
            if (s.ipuCycles[i] == 0)
                continue;
            const float xb =
                std::max(float(xToPixel(double(s.startCycle + s.ipuCycles[i]))), x0 + 0.5f);
            const float y0 = float(plot.top() + double(i) * rowH);
            list.AddRectFilled(ImVec2(x0, y0), ImVec2(xb, float(y0 + std::max(1.0, rowH - 2))),
                               fill);
        }
        if (x1 - x0 > 4)
            list.AddLine(ImVec2(x0, float(plot.top())), ImVec2(x0, float(plot.bottom())), boundary);
    }
    if (!hasHover() || !plot.contains(hoverPosition()))
        return;
    const int at = ipuStepAt(viewport().toDomain(hoverPosition().x() - plot.left(), plot.width()));
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
