// The timeline's tooltips: what an event or a device box is, an aggregated box's count and
// busyness, and a counter's values at the cursor (heatmap cells: TimelineCanvasHeatmap.cpp).

#include "TimelineCanvas.hpp"
#include "TimelineModel.hpp"
#include "core/Format.hpp"

#include <algorithm>
#include <imgui.h>

namespace tilescope::gui {
namespace {

using Kind = TimelineModel::RowKind;

void text(const QString& s) {
    ImGui::TextUnformatted(s.toUtf8().constData());
}

} // namespace

void TimelineCanvas::drawTooltip(int row, double ns) {
    const auto& rowInfo = model_.rows()[std::size_t(row)];
    const auto& window = model_.window();
    const double slop = viewport_.span() / plot_.width() * 3;
    if (TimelineModel::isTrack(rowInfo.kind)) {
        const auto it = window.tracks.find(row);
        if (it == window.tracks.end())
            return;
        for (const auto& b : it->second) {
            if (ns < relative(b.startNs) - slop || ns > relative(b.endNs) + slop)
                continue;
            ImGui::BeginTooltip();
            if (rowInfo.kind == Kind::DeviceTrack) {
                // Device boxes say what they are themselves (steps, phases, cycles).
                text(model_.eventName(row, b.nameId));
                text(model_.describeBox(row, b));
                text(tr("Start %1").arg(formatTime(b.startNs)));
                if (b.kind == report::EventKind::Unfinished)
                    text(tr("Unfinished: the report ended during this run"));
            } else if (b.aggregated) {
                text(tr("%1 events, busy %2").arg(formatCount(b.count), formatPercent(b.busy)));
                text(tr("Longest: %1").arg(model_.eventName(row, b.nameId)));
                text(tr("Zoom in to see single events"));
            } else {
                text(model_.eventName(row, b.nameId));
                text(tr("Start %1, duration %2")
                         .arg(formatTime(b.startNs), formatDuration(double(b.endNs - b.startNs))));
                if (b.kind == report::EventKind::Unfinished)
                    text(tr("Unfinished: the trace ended first"));
                if (const QString metadata = model_.metadataText(row, b.eventId);
                    !metadata.isEmpty()) {
                    ImGui::Separator();
                    text(tr("Metadata"));
                    text(metadata);
                    ImGui::Separator();
                }
                text(tr("Double-click to zoom to it"));
            }
            ImGui::EndTooltip();
            return;
        }
    } else if (rowInfo.kind == Kind::Heatmap) {
        drawHeatmapTooltip(row, ns);
    } else if (rowInfo.kind == Kind::Counter) {
        const auto it = window.charts.find(row);
        if (it == window.charts.end())
            return;
        ImGui::BeginTooltip();
        text(rowInfo.label);
        for (const auto& s : it->second) {
            // The last point at or before the cursor.
            const auto p =
                std::upper_bound(s.points.begin(), s.points.end(), ns,
                                 [&](double t, const auto& q) { return t < relative(q.tNs); });
            if (p == s.points.begin())
                continue;
            const auto& q = *(p - 1);
            const QString v =
                rowInfo.unit == QLatin1String("bytes")
                    ? formatBytes(q.mean)
                    : QStringLiteral("%1 %2").arg(q.mean, 0, 'g', 6).arg(rowInfo.unit);
            text(QStringLiteral("%1: %2").arg(s.name, v));
        }
        ImGui::EndTooltip();
    }
}

} // namespace tilescope::gui
