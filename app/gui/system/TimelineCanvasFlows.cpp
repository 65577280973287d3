// The timeline's flow arrows: those that start or end in the selected event, drawn between the
// rows of the threads they join.

#include "TimelineCanvas.hpp"
#include "TimelineModel.hpp"

#include <QPalette>
#include <algorithm>
#include <cmath>

namespace tilescope::gui {
namespace {

using Kind = TimelineModel::RowKind;

} // namespace

std::optional<float> TimelineCanvas::threadY(int file, std::int64_t threadId,
                                             std::int64_t ns) const {
    std::optional<float> first, deepest, header;
    for (const Placed& p : placed_) {
        const auto& row = model_.rows()[std::size_t(p.row)];
        if (row.file != file || row.threadId != threadId)
            continue;
        const float mid = (p.top + p.bottom) / 2;
        if (row.kind == Kind::Thread)
            header = mid;
        if (row.kind != Kind::Track)
            continue;
        if (!first)
            first = mid;
        const auto it = model_.window().tracks.find(p.row);
        if (it != model_.window().tracks.end())
            for (const auto& b : it->second)
                if (b.startNs <= ns && ns <= b.endNs)
                    deepest = mid;
    }
    return deepest ? deepest : first ? first : header;
}

// Arrows of the flows that start or end in the selected event, from their start point to their
// end point, on the rows of the threads they join.
void TimelineCanvas::drawFlows(ImDrawList& list) {
    if (!selectedEvent_)
        return;
    const auto& sel = *selectedEvent_;
    if (sel.row < 0 || sel.row >= int(model_.rows().size()))
        return;
    const int file = model_.rows()[std::size_t(sel.row)].file;
    const ImU32 arrow = colour(palette().color(QPalette::Text));
    for (const auto& f : model_.flowsAt(sel.row, sel.startNs, sel.endNs)) {
        const auto y0 = threadY(file, f.fromThreadId, f.fromNs);
        const auto y1 = threadY(file, f.toThreadId, f.toNs);
        if (!y0 || !y1)
            continue;
        const ImVec2 a(float(pixelAtTime(f.fromNs)), *y0), b(float(pixelAtTime(f.toNs)), *y1);
        list.AddLine(a, b, arrow, 1.5f);
        // The head: a small triangle pointing along the line at its end.
        const float dx = b.x - a.x, dy = b.y - a.y;
        const float len = std::max(std::sqrt(dx * dx + dy * dy), 1.0f);
        const float ux = dx / len, uy = dy / len;
        list.AddTriangleFilled(b, ImVec2(b.x - 8 * ux - 4 * uy, b.y - 8 * uy + 4 * ux),
                               ImVec2(b.x - 8 * ux + 4 * uy, b.y - 8 * uy - 4 * ux), arrow);
    }
}

} // namespace tilescope::gui
