#include "TileMapWidget.hpp"

#include "TileMemoryModel.hpp"
#include "core/Format.hpp"
#include "core/ImageSaving.hpp"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace tilescope::gui {
namespace {

const QColor kEmpty(0xe8, 0xee, 0xf6);
const QColor kFull(0x1f, 0x3b, 0x6e);
const QColor kOver(0xc6, 0x28, 0x28);
const QColor kSelected(0xff, 0xd4, 0x00);

std::uint32_t ceilSqrt(std::uint32_t n) {
    auto r = std::uint32_t(std::ceil(std::sqrt(double(n))));
    while (r > 1 && (r - 1) * (r - 1) >= n)
        --r;
    return std::max(1u, r);
}

} // namespace

TileMapWidget::Layout TileMapWidget::layoutFor(std::uint32_t numIpus, std::uint32_t tilesPerIpu) {
    Layout l;
    l.columnsPerIpu = ceilSqrt(std::max(1u, tilesPerIpu));
    l.rowsPerIpu = (std::max(1u, tilesPerIpu) + l.columnsPerIpu - 1) / l.columnsPerIpu;
    l.ipuColumns = ceilSqrt(std::max(1u, numIpus));
    l.ipuRows = (std::max(1u, numIpus) + l.ipuColumns - 1) / l.ipuColumns;
    return l;
}

TileMapWidget::Layout TileMapWidget::dieLayout(std::uint32_t numIpus, std::uint32_t columns,
                                               std::uint32_t rows) {
    Layout l;
    l.columnsPerIpu = std::max(1u, columns);
    l.rowsPerIpu = std::max(1u, rows);
    numIpus = std::max(1u, numIpus);
    // Block columns that make the whole map closest to square: sqrt(n * blockH / blockW).
    const double ideal = std::sqrt(double(numIpus) * (l.rowsPerIpu + 1) / (l.columnsPerIpu + 1));
    l.ipuColumns = std::clamp<std::uint32_t>(std::uint32_t(std::lround(ideal)), 1, numIpus);
    l.ipuRows = (numIpus + l.ipuColumns - 1) / l.ipuColumns;
    return l;
}

QColor TileMapWidget::colourFor(std::uint64_t bytes, std::uint64_t capacity) {
    if (capacity > 0 && bytes > capacity)
        return kOver;
    const double f = capacity ? double(bytes) / double(capacity) : 0.0;
    auto mix = [f](int a, int b) { return int(std::lround(a + (b - a) * f)); };
    return QColor(mix(kEmpty.red(), kFull.red()), mix(kEmpty.green(), kFull.green()),
                  mix(kEmpty.blue(), kFull.blue()));
}

TileMapWidget::TileMapWidget(const TileMemoryModel& model, QWidget* parent)
    : QWidget(parent), model_(model) {
    setMouseTracking(false);
    setMinimumSize(120, 80);
    connect(&model, &TileMemoryModel::loadedChanged, this, &TileMapWidget::rebuild);
    connect(&model, &TileMemoryModel::seriesChanged, this, &TileMapWidget::rebuild);
    rebuild();
}

void TileMapWidget::setSelection(const TileSelection& tiles) {
    if (tiles == selection_)
        return;
    selection_ = tiles;
    rebuild();
}

QPoint TileMapWidget::cellOf(std::uint32_t tile) const {
    const std::uint32_t perIpu = std::max(1u, model_.tilesPerIpu());
    const std::uint32_t ipu = tile / perIpu, t = tile % perIpu;
    const report::TilePlacement& place = model_.placement();
    const bool placed = tile < place.x.size();
    const std::uint32_t cx = placed ? place.x[tile] : t % layout_.columnsPerIpu;
    const std::uint32_t cy = placed ? place.y[tile] : t / layout_.columnsPerIpu;
    return {int((ipu % layout_.ipuColumns) * (layout_.columnsPerIpu + 1) + cx),
            int((ipu / layout_.ipuColumns) * (layout_.rowsPerIpu + 1) + cy)};
}

void TileMapWidget::rebuild() {
    const std::uint32_t tiles = model_.tileCount();
    const std::uint32_t perIpu = std::max(1u, model_.tilesPerIpu());
    const std::uint32_t ipus = tiles ? (tiles + perIpu - 1) / perIpu : 1;
    const report::TilePlacement& place = model_.placement();
    layout_ = place.empty() ? layoutFor(ipus, perIpu) : dieLayout(ipus, place.columns, place.rows);
    image_ = QImage(int(layout_.widthCells()), int(layout_.heightCells()), QImage::Format_ARGB32);
    image_.fill(Qt::transparent);
    cellTile_.assign(std::size_t(image_.width()) * std::size_t(image_.height()), -1);
    const std::uint64_t capacity = model_.bytesPerTile();
    for (std::uint32_t t = 0; t < tiles; ++t) {
        const QPoint c = cellOf(t);
        cellTile_[std::size_t(c.y()) * std::size_t(image_.width()) + std::size_t(c.x())] =
            std::int32_t(t);
        const QColor colour =
            selection_.contains(t) ? kSelected : colourFor(model_.tileTotal(t), capacity);
        image_.setPixel(c, colour.rgb());
    }
    scaled_ = QPixmap();
    update();
}

QRectF TileMapWidget::mapRect() const {
    if (image_.isNull())
        return {};
    const double scale =
        std::min(double(width()) / image_.width(), double(height()) / image_.height());
    const QSizeF size(image_.width() * scale, image_.height() * scale);
    return {QPointF((width() - size.width()) / 2, (height() - size.height()) / 2), size};
}

std::optional<std::uint32_t> TileMapWidget::tileAt(QPointF pos) const {
    const QRectF r = mapRect();
    if (!model_.isLoaded() || r.isEmpty() || !r.contains(pos))
        return std::nullopt;
    const double scale = r.width() / image_.width();
    const auto x = std::min(int((pos.x() - r.left()) / scale), image_.width() - 1);
    const auto y = std::min(int((pos.y() - r.top()) / scale), image_.height() - 1);
    const std::int32_t tile =
        cellTile_[std::size_t(y) * std::size_t(image_.width()) + std::size_t(x)];
    if (tile < 0)
        return std::nullopt; // a gap between IPUs or an empty cell of a die
    return std::uint32_t(tile);
}

void TileMapWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    if (!model_.isLoaded()) {
        p.drawText(rect(), Qt::AlignCenter, tr("Loading…"));
        return;
    }
    const QRectF target = mapRect();
    const QSize size = target.size().toSize();
    if (size.isEmpty())
        return;
    if (scaled_.size() != size)
        scaled_ =
            QPixmap::fromImage(image_.scaled(size, Qt::IgnoreAspectRatio, Qt::FastTransformation));
    p.drawPixmap(target.topLeft(), scaled_);
}

void TileMapWidget::mousePressEvent(QMouseEvent* event) {
    const auto tile = tileAt(event->position());
    if (!tile || event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    TileSelection next;
    if (event->modifiers() & Qt::ControlModifier) {
        next = selection_;
        next.toggle(*tile);
    } else if ((event->modifiers() & Qt::ShiftModifier) && !selection_.empty()) {
        next = selection_;
        const std::uint32_t anchor = selection_.ranges().front().first;
        next.add({std::min(anchor, *tile), std::max(anchor, *tile)});
    } else {
        next = TileSelection::single(*tile);
    }
    emit selectionChanged(next);
}

bool TileMapWidget::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const auto tile = tileAt(help->pos());
    if (!tile) {
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    const std::uint32_t perIpu = model_.tilesPerIpu();
    const std::uint64_t bytes = model_.tileTotal(*tile), capacity = model_.bytesPerTile();
    QString text =
        tr("Tile %1 (IPU %2, tile %3)").arg(*tile).arg(*tile / perIpu).arg(*tile % perIpu);
    if (const report::TilePlacement& place = model_.placement(); *tile < place.x.size())
        text += tr("\nOn the die: column %1, row %2").arg(place.x[*tile]).arg(place.y[*tile]);
    text += tr("\n%1 of %2 (%3)")
                .arg(formatBytes(double(bytes)), formatBytes(double(capacity)),
                     formatPercent(capacity ? double(bytes) / double(capacity) : 0.0));
    QToolTip::showText(help->globalPos(), text, this);
    return true;
}

void TileMapWidget::contextMenuEvent(QContextMenuEvent* event) {
    showSaveImageMenu(this, event, tr("tile map"));
}

} // namespace tilescope::gui
