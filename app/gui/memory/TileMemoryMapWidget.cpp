#include "TileMemoryMapWidget.hpp"

#include "canvas/SeriesColours.hpp"
#include "core/Format.hpp"
#include "core/ImageSaving.hpp"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

namespace tilescope::gui {
namespace {

constexpr double kLeft = 16, kRight = 16, kTop = 46, kBottom = 30;
constexpr double kRegionBand = 18; // the regions' band above the lanes

QString hexAddress(std::uint64_t a) {
    return QStringLiteral("0x%1").arg(a, 5, 16, QLatin1Char('0'));
}

} // namespace

TileMemoryMapWidget::TileMemoryMapWidget(const TileMemoryMapModel& model, QWidget* parent)
    : QWidget(parent), model_(model) {
    setMinimumHeight(160);
    setMouseTracking(true);
    connect(&model_, &TileMemoryMapModel::loaded, this, [this] {
        relayout();
        update();
    });
    connect(&model_, &TileMemoryMapModel::failed, this, [this] {
        relayout();
        update();
    });
}

void TileMemoryMapWidget::relayout() {
    // Always-live blocks never share addresses: lane 0. A not-always-live block takes the first
    // lane whose blocks end at or below its address.
    const auto& blocks = model_.map().blocks;
    lanes_.assign(blocks.size(), 0);
    std::vector<std::uint64_t> laneEnd(2, 0);
    laneCount_ = 1;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        if (blocks[i].alwaysLive())
            continue;
        int lane = 1;
        while (std::size_t(lane) < laneEnd.size() && laneEnd[std::size_t(lane)] > blocks[i].address)
            ++lane;
        if (std::size_t(lane) == laneEnd.size())
            laneEnd.push_back(0);
        laneEnd[std::size_t(lane)] = std::max(laneEnd[std::size_t(lane)], blocks[i].end());
        lanes_[i] = lane;
        laneCount_ = std::max(laneCount_, lane + 1);
    }
}

QRectF TileMemoryMapWidget::plotRect() const {
    return {kLeft, kTop + kRegionBand, std::max(10.0, width() - kLeft - kRight),
            std::max(10.0, height() - kTop - kRegionBand - kBottom)};
}

double TileMemoryMapWidget::xOf(std::uint64_t address) const {
    const QRectF plot = plotRect();
    const auto end = std::max<std::uint64_t>(model_.map().tileBytes, 1);
    return plot.left() + plot.width() * double(std::min(address, end)) / double(end);
}

QRectF TileMemoryMapWidget::blockRect(std::size_t block) const {
    const QRectF plot = plotRect();
    const auto& b = model_.map().blocks[block];
    const double laneHeight = plot.height() / laneCount_;
    const double x0 = xOf(b.address);
    // Every block at least a pixel wide, so small ones stay visible.
    const double x1 = std::max(xOf(b.end()), x0 + 1);
    return {x0, plot.top() + laneHeight * lanes_[block] + 1, x1 - x0, laneHeight - 2};
}

int TileMemoryMapWidget::blockAt(QPointF pos) const {
    const auto& blocks = model_.map().blocks;
    int best = -1;
    for (std::size_t i = 0; i < blocks.size() && i < lanes_.size(); ++i)
        if (blockRect(i).adjusted(-1, 0, 1, 0).contains(pos) &&
            (best < 0 || blocks[i].bytes < blocks[std::size_t(best)].bytes))
            best = int(i); // the smallest block under the pointer: a wide one never hides it
    return best;
}

void TileMemoryMapWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const TileMemoryMap& map = model_.map();
    if (!model_.message().isEmpty() || map.regions.empty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                   model_.message().isEmpty() ? tr("Reading the tile memory map…")
                                              : model_.message());
        return;
    }
    if (lanes_.size() != map.blocks.size())
        relayout();
    const QRectF plot = plotRect();
    // Title: the tile and its figures.
    p.setPen(pal.color(QPalette::Text));
    p.drawText(QRectF(kLeft, 4, width() - kLeft - kRight, 18), Qt::AlignLeft | Qt::AlignVCenter,
               tr("Tile %1: %2 blocks; including gaps %3 of %4 (to the highest block of each "
                  "region, the regions below it whole)")
                   .arg(formatCount(map.tile), formatCount(std::int64_t(map.blocks.size())),
                        formatBytes(double(map.includingGaps())),
                        formatBytes(double(map.tileBytes))));
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(QRectF(kLeft, 22, width() - kLeft - kRight, 18), Qt::AlignLeft | Qt::AlignVCenter,
               tr("Lane 1: code, vertex data and always-live variables; lanes below: "
                  "not-always-live variables sharing addresses. Hatched: gaps."));

    // Regions: a band each, their boundaries through the lanes, gaps hatched below each top.
    bool regionAbove = false;
    std::vector<double> gapEnds(map.regions.size(), 0);
    for (std::size_t r = map.regions.size(); r-- > 0;) {
        const MemoryMapRegion& region = map.regions[r];
        const double x0 = xOf(region.start), x1 = xOf(region.start + region.size);
        QColor band = region.interleaved ? QColor(120, 160, 220) : QColor(150, 190, 130);
        p.fillRect(QRectF(x0, kTop, x1 - x0, kRegionBand - 2), band);
        p.setPen(Qt::black);
        p.drawText(QRectF(x0 + 4, kTop, std::max(0.0, x1 - x0 - 8), kRegionBand - 2),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   tr("%1 (%2)").arg(region.name, formatBytes(double(region.size))));
        // How far up the region counts: to its highest block, or whole below a used region.
        if (regionAbove) {
            gapEnds[r] = x1;
        } else if (region.top > region.start) {
            gapEnds[r] = xOf(region.top);
            regionAbove = true;
        } else {
            gapEnds[r] = x0;
        }
        QColor hatch = pal.color(QPalette::Text);
        hatch.setAlphaF(0.25f);
        p.fillRect(QRectF(x0, plot.top(), gapEnds[r] - x0, plot.height()),
                   QBrush(hatch, Qt::BDiagPattern));
        p.setPen(QPen(pal.color(QPalette::Text), 1, Qt::DashLine));
        p.drawLine(QPointF(x0, kTop), QPointF(x0, plot.bottom()));
    }
    // Blocks.
    for (std::size_t i = 0; i < map.blocks.size(); ++i) {
        const QRectF r = blockRect(i);
        QColor c = seriesColour(map.blocks[i].categoryId);
        p.fillRect(r, c);
        if (r.width() > 3) {
            p.setPen(c.darker(140));
            p.drawRect(r);
        }
    }
    // Address axis: the bottom of memory, each region's start, the end.
    p.setPen(pal.color(QPalette::Text));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    std::vector<std::uint64_t> ticks{0};
    for (const auto& r : map.regions)
        if (r.start > 0)
            ticks.push_back(r.start);
    ticks.push_back(map.tileBytes);
    for (std::size_t t = 0; t < ticks.size(); ++t) {
        const double x = xOf(ticks[t]);
        const Qt::Alignment align = t == 0                  ? Qt::AlignLeft
                                    : t + 1 == ticks.size() ? Qt::AlignRight
                                                            : Qt::AlignHCenter;
        const double left = align == Qt::AlignLeft ? x : align == Qt::AlignRight ? x - 120 : x - 60;
        p.drawText(QRectF(left, plot.bottom() + 4, 120, 18), align | Qt::AlignTop,
                   hexAddress(ticks[t]));
    }
}

bool TileMemoryMapWidget::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int i = blockAt(help->pos());
        if (i < 0) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        const MemoryMapBlock& b = model_.map().blocks[std::size_t(i)];
        QString text =
            tr("<b>%1</b><br>%2, %3<br>%4 to %5 (%6)")
                .arg(b.what.toHtmlEscaped(), b.category.toHtmlEscaped(),
                     b.region >= 0 ? model_.map().regions[std::size_t(b.region)].name
                                   : tr("no region"),
                     hexAddress(b.address), hexAddress(b.end()), formatBytes(double(b.bytes)));
        text += b.firstStep ? tr("<br>live in steps %1 to %2")
                                  .arg(*b.firstStep)
                                  .arg(b.lastStep.value_or(*b.firstStep))
                            : tr("<br>always live");
        QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void TileMemoryMapWidget::contextMenuEvent(QContextMenuEvent* event) {
    showSaveImageMenu(this, event, tr("tile memory map"));
}

} // namespace tilescope::gui
