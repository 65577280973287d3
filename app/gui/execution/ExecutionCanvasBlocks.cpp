// ExecutionCanvas's Blocks mode: a band of rows per tile that recorded lightweight-profiling
// blocks, nested blocks one row below the block that holds them; user blocks coloured by name,
// stream copies and buffer flushes in the stream-copy colour, overflows (dropped records) red.
#include "ExecutionCanvas.hpp"
#include "ExecutionModel.hpp"
#include "core/Format.hpp"

#include <QHash>
#include <algorithm>
#include <cmath>

namespace tilescope::gui {

QColor ExecutionCanvas::blockColour(report::BlockKind kind, const std::string& name) {
    if (kind == report::BlockKind::Overflow)
        return QColor(0xe1, 0x57, 0x59);
    if (report::isStreamCopyKind(kind))
        return phaseColour(ExecutionModel::Stream);
    static const QColor named[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xb0, 0x7a, 0xa1),
                                   QColor(0x76, 0xb7, 0xb2), QColor(0xed, 0xc9, 0x48),
                                   QColor(0x9c, 0x75, 0x5f), QColor(0xf2, 0x8e, 0x2b)};
    return named[qHash(QString::fromStdString(name)) % (sizeof named / sizeof named[0])];
}

void ExecutionCanvas::drawBlockRows(ImDrawList& list, const QRectF& plot) {
    const BlockRows& rows = model_.window().blocks;
    const std::uint32_t total = rows.totalRows();
    if (total == 0)
        return;
    const double rowH = plot.height() / double(total);
    const BlockRows::Bar* hovered = nullptr;
    const bool hovering = hasHover() && plot.contains(hoverPosition());
    for (const auto& bar : rows.bars) {
        const float x0 = std::max(float(xToPixel(double(bar.startCycle))), float(plot.left()));
        const float x1 = std::min(std::max(float(xToPixel(double(bar.endCycle))), x0 + 1.0f),
                                  float(plot.right()));
        if (x1 < float(plot.left()) || x0 > float(plot.right()))
            continue;
        const double row = double(rows.firstRow(bar.band) + bar.depth);
        const float y0 = float(plot.top() + row * rowH);
        const float y1 = float(y0 + std::max(1.0, rowH - 2));
        const double alpha = report::isBlockFlushKind(bar.kind) ? 0.55 : 1.0;
        list.AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1),
                           colour(blockColour(bar.kind, bar.name), alpha));
        if (x1 - x0 > 40 && rowH >= 14) {
            const QByteArray label = QString::fromStdString(bar.name).toUtf8();
            list.PushClipRect(ImVec2(x0, y0), ImVec2(x1, y1), true);
            list.AddText(ImVec2(x0 + 3, y0 + float(rowH - 2) / 2 - 7), IM_COL32(255, 255, 255, 230),
                         label.constData());
            list.PopClipRect();
        }
        if (hovering && hoverPosition().x() >= x0 && hoverPosition().x() <= x1 &&
            hoverPosition().y() >= y0 && hoverPosition().y() <= y1)
            hovered = &bar;
    }
    // Band separators, so the tiles' rows read apart.
    for (std::uint32_t b = 1; b < rows.tiles.size(); ++b) {
        const float y = float(plot.top() + double(rows.firstRow(b)) * rowH);
        list.AddLine(ImVec2(float(plot.left()), y), ImVec2(float(plot.right()), y),
                     colour(palette().color(QPalette::Text), 0.3));
    }
    if (!hovered)
        return;
    auto line = [](const QString& t) { ImGui::TextUnformatted(t.toUtf8().constData()); };
    const auto& t = rows.tiles[hovered->band];
    ImGui::BeginTooltip();
    line(tr("%1 (%2) on tile %3")
             .arg(QString::fromStdString(hovered->name),
                  QString::fromUtf8(report::blockKindName(hovered->kind).data()),
                  formatCount(std::int64_t(t))));
    line(tr("%1 cycles, from cycle %2 to %3 of the run")
             .arg(formatCount(std::int64_t(hovered->endCycle - hovered->startCycle)),
                  formatCount(std::int64_t(hovered->startCycle)),
                  formatCount(std::int64_t(hovered->endCycle))));
    if (hovered->depth > 0)
        line(tr("Nested %1 level(s) deep").arg(hovered->depth));
    if (hovered->kind == report::BlockKind::Overflow)
        line(tr("The tile's block buffer was full: %1 block records were dropped")
                 .arg(formatCount(std::int64_t(hovered->dropped))));
    ImGui::EndTooltip();
}

void ExecutionCanvas::drawBlockRowLabels(ImDrawList& list, const QRectF& plot) {
    const BlockRows& rows = model_.window().blocks;
    const std::uint32_t total = rows.totalRows();
    if (total == 0)
        return;
    const double rowH = plot.height() / double(total);
    const float lineH = ImGui::GetTextLineHeight();
    if (rowH < lineH * 0.8)
        return; // too dense to label every row; the tooltip names the tile
    // The axis names each band's tile at its first row; the rows below it hold nested blocks.
    const ImU32 faint = colour(palette().color(QPalette::Text), 0.6);
    for (std::uint32_t b = 0; b < rows.tiles.size(); ++b) {
        const std::uint32_t depth = b < rows.depths.size() ? rows.depths[b] : 1;
        for (std::uint32_t d = 1; d < depth; ++d) {
            const QByteArray utf8 = tr("nested %1").arg(d).toUtf8();
            const float w = ImGui::CalcTextSize(utf8.constData()).x;
            const float y =
                float(plot.top() + (double(rows.firstRow(b) + d) + 0.5) * rowH) - lineH / 2;
            list.AddText(ImVec2(float(plot.left()) - w - 6, y), faint, utf8.constData());
        }
    }
}

} // namespace tilescope::gui
