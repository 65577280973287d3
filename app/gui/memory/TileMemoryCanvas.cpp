#include "TileMemoryCanvas.hpp"

#include "canvas/ColumnLookup.hpp"
#include "canvas/SeriesColours.hpp"
#include "core/Format.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace tilescope::gui {
namespace {
constexpr float kSwatch = 10.0f;

void text(const QString& s) {
    ImGui::TextUnformatted(s.toUtf8().constData());
}

/// A colour square in a tooltip line, in front of the text that follows on the same line.
void swatch(ImU32 col) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetTextLineHeight();
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + 2),
                                              ImVec2(p.x + h - 4, p.y + h - 2), col);
    ImGui::Dummy(ImVec2(h - 2, h));
    ImGui::SameLine();
}
} // namespace

TileMemoryCanvas::TileMemoryCanvas(TileMemoryModel& model, QWidget* parent)
    : ChartCanvas(parent), model_(model) {
    connect(&model_, &TileMemoryModel::loadedChanged, this, &TileMemoryCanvas::onModelChanged);
    connect(&model_, &TileMemoryModel::seriesChanged, this, [this] {
        dirty_ = true; // also sent when the tile order changes
        update();
    });
    connect(&model_, &TileMemoryModel::failed, this, [this] { update(); });
    onModelChanged();
}

void TileMemoryCanvas::onModelChanged() {
    if (model_.isLoaded()) {
        const double begin = viewport().begin(), end = viewport().end();
        const bool hadWindow = viewport().extent() > 1 && !viewport().isFullyZoomedOut();
        viewport().setExtent(std::max<std::uint32_t>(1, model_.tileCount()), 1.0);
        if (hadWindow)
            viewport().setWindow(begin, end);
    }
    dirty_ = true;
    update();
}

void TileMemoryCanvas::setSelection(const TileSelection& tiles) {
    selection_ = tiles;
    selectionDirty_ = true;
    if (!tiles.empty())
        anchorTile_ = tiles.ranges().front().first;
    update();
}

void TileMemoryCanvas::setShowMaxMemory(bool show) {
    showMaxMemory_ = show;
    update();
}

QString TileMemoryCanvas::message() const {
    if (!model_.error().isEmpty())
        return tr("Cannot read memory per tile: %1").arg(model_.error());
    if (!model_.isLoaded())
        return tr("Loading memory per tile…");
    return {};
}

QString TileMemoryCanvas::formatY(double value) const {
    return formatBytes(value);
}

double TileMemoryCanvas::rightMargin() const {
    if (model_.seriesNames().size() <= 1)
        return 0;
    float widest = 0;
    for (const QString& name : model_.seriesNames())
        widest = std::max(widest, ImGui::CalcTextSize(name.toUtf8().constData()).x);
    return std::min<double>(widest + kSwatch + 24, width() * 0.35);
}

void TileMemoryCanvas::refreshColumns(double plotWidth) {
    const auto first = std::uint32_t(std::max(0.0, std::floor(viewport().begin())));
    const auto end = std::uint32_t(std::max(0.0, std::ceil(viewport().end())));
    const int widthPx = std::max(1, int(plotWidth));
    if (dirty_ || first != cachedFirst_ || end != cachedEnd_ || widthPx != cachedWidth_) {
        columns_ = model_.columns(first, end, widthPx);
        cachedFirst_ = first;
        cachedEnd_ = end;
        cachedWidth_ = widthPx;
        dirty_ = false;
        selectionDirty_ = true;
    }
    if (selectionDirty_) {
        columnSelected_.resize(columns_.columns.size());
        for (std::size_t c = 0; c < columns_.columns.size(); ++c)
            columnSelected_[c] =
                model_.anySelected(selection_, columns_.columns[c].first, columns_.columns[c].end);
        selectionDirty_ = false;
    }
}

void TileMemoryCanvas::prepareFrame(const QRectF& plot) {
    refreshColumns(plot.width());
    const double limit = showMaxMemory_ ? double(model_.bytesPerTile()) : 0.0;
    yMax_ = std::max(columns_.maxTotal, limit) * 1.08;
    if (yMax_ <= 0)
        yMax_ = 1;
}

int TileMemoryCanvas::columnAt(double x) const {
    return columnContaining(
        columns_.columns, x, [](const auto& c) { return c.first; },
        [](const auto& c) { return c.end; });
}

void TileMemoryCanvas::drawChart(ImDrawList& list, const QRectF& plot) {
    const QPalette& pal = palette();
    const QColor textColour = pal.color(QPalette::Text);
    const int seriesCount = columns_.seriesCount;
    std::vector<ImU32> seriesColours;
    for (std::int64_t key : model_.seriesKeys())
        seriesColours.push_back(colour(seriesColour(key)));
    const ImU32 selectionFill = colour(pal.color(QPalette::Highlight), 0.28);
    const ImU32 rangeFill = colour(textColour, 0.16);
    const ImU32 hoverFill = colour(textColour, 0.10);
    const float bottom = float(plot.bottom());
    const int hovered = hasHover() && plot.contains(hoverPosition()) ? columnAt(hoveredX()) : -1;

    for (std::size_t c = 0; c < columns_.columns.size(); ++c) {
        const auto& col = columns_.columns[c];
        float x0 = float(xToPixel(col.first));
        float x1 = float(xToPixel(col.end));
        if (x1 - x0 > 4) // separate bars once a tile is wide enough to see
            x0 += 1, x1 -= 1;
        x1 = std::max(x1, x0 + 1);
        if (int(c) == hovered)
            list.AddRectFilled(ImVec2(x0, float(plot.top())), ImVec2(x1, bottom), hoverFill);
        if (columnSelected_[c])
            list.AddRectFilled(ImVec2(x0, float(plot.top())), ImVec2(x1, bottom), selectionFill);
        double acc = 0;
        for (int s = 0; s < seriesCount; ++s) {
            const double v = columns_.seriesMean[c * std::size_t(seriesCount) + std::size_t(s)];
            if (v <= 0)
                continue;
            list.AddRectFilled(ImVec2(x0, float(yToPixel(acc + v))),
                               ImVec2(x1, float(yToPixel(acc))), seriesColours[std::size_t(s)]);
            acc += v;
        }
        // Columns of several tiles: show the spread up to the fullest tile, since the fullest
        // tile is what goes out of memory.
        if (col.end - col.first > 1 && col.maxTotal > acc)
            list.AddRectFilled(ImVec2(x0, float(yToPixel(col.maxTotal))),
                               ImVec2(x1, float(yToPixel(acc))), rangeFill);
    }

    // IPU boundaries and names.
    const std::uint32_t perIpu = model_.tilesPerIpu();
    if (perIpu > 0 && model_.tileCount() > perIpu) {
        const ImU32 boundary = colour(textColour, 0.45);
        const auto firstIpu = std::uint32_t(viewport().begin() / perIpu);
        const auto lastIpu = std::uint32_t(std::ceil(viewport().end() / perIpu));
        const float ipuWidth = float(plot.width() * perIpu / viewport().span());
        for (std::uint32_t ipu = firstIpu; ipu <= lastIpu; ++ipu) {
            const float x = float(xToPixel(double(ipu) * perIpu));
            if (ipu > 0)
                list.AddLine(ImVec2(x, float(plot.top())), ImVec2(x, bottom), boundary);
            const QByteArray label = QStringLiteral("IPU %1").arg(ipu).toUtf8();
            if (ipuWidth > ImGui::CalcTextSize(label.constData()).x + 8)
                list.AddText(ImVec2(std::max(x, float(plot.left())) + 4, float(plot.top()) + 2),
                             colour(textColour, 0.7), label.constData());
        }
    }

    if (showMaxMemory_ && model_.bytesPerTile() > 0) {
        const float y = float(yToPixel(double(model_.bytesPerTile())));
        const ImU32 red = colour(QColor(0xd6, 0x27, 0x28));
        list.AddLine(ImVec2(float(plot.left()), y), ImVec2(float(plot.right()), y), red, 1.5f);
        const QByteArray label =
            tr("Max memory per tile: %1").arg(formatBytes(double(model_.bytesPerTile()))).toUtf8();
        const ImVec2 size = ImGui::CalcTextSize(label.constData());
        list.AddText(ImVec2(float(plot.right()) - size.x - 6, y - size.y - 2), red,
                     label.constData());
    }
    if (hovered >= 0)
        drawTooltip(hovered);
}

void TileMemoryCanvas::drawOverlay(ImDrawList& list, const QRectF& plot) {
    const QStringList& names = model_.seriesNames();
    if (names.size() <= 1)
        return;
    const float lineHeight = ImGui::GetTextLineHeightWithSpacing();
    const float x = float(plot.right()) + 12;
    float y = float(plot.top());
    const ImU32 label = colour(palette().color(QPalette::Text));
    // Top of the stack first, as the series appear in the chart.
    for (int s = int(names.size()) - 1; s >= 0; --s) {
        list.AddRectFilled(ImVec2(x, y + 2), ImVec2(x + kSwatch, y + 2 + kSwatch),
                           colour(seriesColour(model_.seriesKeys()[std::size_t(s)])));
        list.AddText(ImVec2(x + kSwatch + 6, y), label, names[s].toUtf8().constData());
        y += lineHeight;
    }
}

void TileMemoryCanvas::drawTooltip(int column) {
    const auto& col = columns_.columns[std::size_t(column)];
    const std::uint32_t tiles = col.end - col.first;
    const std::uint32_t perIpu = std::max<std::uint32_t>(1, model_.tilesPerIpu());
    const bool physical = model_.tileOrder() == TileMemoryModel::TileOrder::Physical;
    const report::TilePlacement& place = model_.placement();
    ImGui::BeginTooltip();
    if (tiles == 1) {
        const std::uint32_t tile = model_.tileAt(col.first);
        text(tr("Tile %1 (IPU %2, tile %3)").arg(tile).arg(tile / perIpu).arg(tile % perIpu));
        if (physical)
            text(tr("On the die: column %1, row %2").arg(place.x[tile]).arg(place.y[tile]));
        text(tr("Total: %1").arg(formatBytes(col.maxTotal)));
    } else {
        if (physical) {
            const std::uint32_t a = model_.tileAt(col.first), b = model_.tileAt(col.end - 1);
            text(a / perIpu == b / perIpu
                     ? tr("%1 tiles of IPU %2, die columns %3–%4")
                           .arg(tiles)
                           .arg(a / perIpu)
                           .arg(place.x[a])
                           .arg(place.x[b])
                     : tr("%1 tiles of IPUs %2–%3").arg(tiles).arg(a / perIpu).arg(b / perIpu));
        } else {
            text(tr("Tiles %1–%2 (%3 tiles)").arg(col.first).arg(col.end - 1).arg(tiles));
        }
        text(tr("Total: min %1, mean %2, max %3")
                 .arg(formatBytes(col.minTotal), formatBytes(col.meanTotal),
                      formatBytes(col.maxTotal)));
    }
    if (model_.bytesPerTile() > 0)
        text(tr("Fullest tile uses %1 of its memory")
                 .arg(formatPercent(col.maxTotal / double(model_.bytesPerTile()))));
    const QStringList& names = model_.seriesNames();
    if (names.size() > 1) {
        ImGui::Separator();
        for (int s = int(names.size()) - 1; s >= 0; --s) {
            const double v =
                columns_.seriesMean[std::size_t(column) * std::size_t(columns_.seriesCount) +
                                    std::size_t(s)];
            if (v <= 0)
                continue;
            swatch(colour(seriesColour(model_.seriesKeys()[std::size_t(s)])));
            text(QStringLiteral("%1: %2%3")
                     .arg(names[s], formatBytes(v), tiles > 1 ? tr(" (mean)") : QString()));
        }
    }
    ImGui::EndTooltip();
}

void TileMemoryCanvas::clickedAt(double x, Qt::KeyboardModifiers modifiers) {
    // The window may have changed since the last frame (keyboard zoom, then a quick click).
    refreshColumns(plotRect().width());
    const int c = columnAt(x);
    if (c < 0)
        return;
    const auto& col = columns_.columns[std::size_t(c)];
    const std::uint32_t position =
        std::clamp(std::uint32_t(std::max(0.0, x)), col.first, col.end - 1);
    if (modifiers & Qt::ShiftModifier) {
        // From the anchor tile to this column, along the chart's order.
        const std::uint32_t anchor = model_.positionOf(anchorTile_);
        selection_ = model_.tilesAt(std::min(anchor, col.first), std::max(anchor + 1, col.end));
    } else if (modifiers & Qt::ControlModifier) {
        if (col.end - col.first == 1)
            selection_.toggle(model_.tileAt(position));
        else {
            const TileSelection column = model_.tilesAt(col.first, col.end);
            for (const TileSelection::Range& r : column.ranges())
                selection_.add(r);
        }
        anchorTile_ = model_.tileAt(position);
    } else {
        selection_ = model_.tilesAt(col.first, col.end);
        anchorTile_ = model_.tileAt(col.first);
    }
    selectionDirty_ = true;
    update();
    emit selectionChanged(selection_);
}

} // namespace tilescope::gui
