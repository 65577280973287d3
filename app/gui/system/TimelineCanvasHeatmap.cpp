// Heatmap rows of the timeline: one cell per time bin and bucket (bucket 0 at the bottom), its
// colour the number of values added in that bin and bucket; the label column holds the legend
// (colour ramp from 0 to the window's largest count, and the range of the buckets).

#include "TimelineCanvas.hpp"
#include "TimelineLayout.hpp"
#include "TimelineModel.hpp"
#include "core/Format.hpp"

#include <QPalette>
#include <algorithm>
#include <cmath>
#include <imgui.h>

namespace tilescope::gui {
namespace {

using namespace timeline_layout;

void text(const QString& s) {
    ImGui::TextUnformatted(s.toUtf8().constData());
}

} // namespace

void TimelineCanvas::drawHeatmap(ImDrawList& list, int row, const QRectF& r) {
    const auto& rowInfo = model_.rows()[std::size_t(row)];
    const auto it = model_.window().heatmaps.find(row);
    if (it == model_.window().heatmaps.end() || it->second.buckets == 0)
        return;
    const HeatmapCells& cells = it->second;
    const float top = float(r.top()) + 4, bottom = float(r.bottom()) - 2;
    const float cellHeight = (bottom - top) / float(cells.buckets);
    const float left = float(plot_.left()), right = float(plot_.right());
    for (std::size_t bin = 0; bin < cells.bins; ++bin) {
        const std::int64_t t0 = cells.fromNs + std::int64_t(bin) * cells.binNs;
        const float px0 = float(pixelAtTime(t0)), px1 = float(pixelAtTime(t0 + cells.binNs));
        if (px1 <= left || px0 >= right) // overview cells may start before the window
            continue;
        const float x0 = std::max(px0, left), x1 = std::min(px1, right);
        for (std::size_t bucket = 0; bucket < cells.buckets; ++bucket) {
            const std::uint32_t c = heatmapColour(cells.at(bin, bucket), cells.maxCount);
            if (c == 0)
                continue;
            const float y1 = bottom - float(bucket) * cellHeight;
            list.AddRectFilled(ImVec2(x0, y1 - cellHeight), ImVec2(std::max(x1, x0 + 1), y1), c);
        }
    }
    // Legend in the label column, under the row's name: the colour ramp and the bucket range.
    const ImU32 textColour = colour(palette().color(QPalette::Text), 0.8);
    const float x = 18 + float(rowInfo.indent) * 12;
    const float rampY = float(r.top()) + 20;
    list.AddText(ImVec2(x, rampY - 2), textColour, "0");
    const float rampLeft = x + 12, rampWidth = 60;
    for (int i = 0; i < 12; ++i) {
        const std::uint64_t n =
            std::max<std::uint64_t>(1, std::uint64_t(std::llround(double(i + 1) / 12.0 * 1000.0)));
        list.AddRectFilled(ImVec2(rampLeft + rampWidth * float(i) / 12, rampY),
                           ImVec2(rampLeft + rampWidth * float(i + 1) / 12, rampY + 10),
                           heatmapColour(n, 1000));
    }
    list.AddText(ImVec2(rampLeft + rampWidth + 4, rampY - 2), textColour,
                 formatCount(std::int64_t(cells.maxCount)).toUtf8().constData());
    if (!rowInfo.buckets.empty()) {
        const QString range = tr("%1 buckets, %2 … %3")
                                  .arg(rowInfo.buckets.size())
                                  .arg(rowInfo.buckets.front(), rowInfo.buckets.back());
        list.PushClipRect(ImVec2(0, float(r.top())), ImVec2(labelWidth_ - kPinWidth - 2, bottom),
                          true);
        list.AddText(ImVec2(x, rampY + 14), textColour, range.toUtf8().constData());
        list.PopClipRect();
    }
}

void TimelineCanvas::drawHeatmapTooltip(int row, double ns) {
    const auto& rowInfo = model_.rows()[std::size_t(row)];
    const auto it = model_.window().heatmaps.find(row);
    if (it == model_.window().heatmaps.end() || it->second.buckets == 0)
        return;
    const HeatmapCells& cells = it->second;
    const long long bin = cells.binAt(model_.beginNs() + std::llround(ns));
    if (bin < 0)
        return;
    // Which bucket the cursor is over: rows are stacked from bucket 0 at the bottom.
    const float y = float(hoverPosition().y());
    std::size_t bucket = 0;
    for (const Placed& p : placed_)
        if (p.row == row) {
            const float top = p.top + 4, bottom = p.bottom - 2;
            const float share = std::clamp((bottom - y) / (bottom - top), 0.0f, 0.999f);
            bucket = std::size_t(share * float(cells.buckets));
        }
    std::uint64_t total = 0;
    for (std::size_t b = 0; b < cells.buckets; ++b)
        total += cells.at(std::size_t(bin), b);
    const std::int64_t t0 = cells.fromNs + bin * cells.binNs;
    ImGui::BeginTooltip();
    text(rowInfo.label);
    text(tr("%1 to %2").arg(formatTime(t0), formatTime(t0 + cells.binNs)));
    const QString label =
        bucket < rowInfo.buckets.size() ? rowInfo.buckets[bucket] : QString::number(bucket);
    text(tr("Bucket %1 %2: %3 values")
             .arg(label, rowInfo.unit,
                  formatCount(std::int64_t(cells.at(std::size_t(bin), bucket)))));
    text(tr("All buckets: %1 values").arg(formatCount(std::int64_t(total))));
    ImGui::EndTooltip();
}

} // namespace tilescope::gui
