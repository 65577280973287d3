#include "TileMemoryCompareModel.hpp"

#include "CompareSession.hpp"
#include "core/Background.hpp"
#include "memory/PhysicalTileOrder.hpp"
#include "tilescope/report/ReportError.hpp"

namespace tilescope::gui {
namespace {

/// What the worker hands back: the canvas series and the worst tiles.
struct Loaded {
    std::shared_ptr<CompareSeries> series;
    std::shared_ptr<CompareSeries> physical; // null without a shared tile placement
    std::vector<std::uint32_t> physicalTiles;
    QString placementProblem;
    std::vector<report::TileDelta> worst;
    bool sameTileCount = true;
};

/// A report's tile placement, or why it has none usable.
report::TilePlacement placementOf(const ReportSession& session, const QString& which,
                                  QString* problem) {
    return session.read(
        [&](const report::ProfileReader& r) { return readTilePlacement(r, which, problem); });
}

/// The physical order both reports share, or empty (and why) when they do not share one.
std::vector<std::uint32_t> sharedPhysicalOrder(const CompareSession& session, bool sameTiles,
                                               QString* problem) {
    if (!sameTiles) {
        *problem = QObject::tr("The reports have different numbers of tiles.");
        return {};
    }
    const report::TilePlacement a = placementOf(session.source(), QObject::tr("source"), problem);
    if (a.empty())
        return {};
    const report::TilePlacement b = placementOf(session.target(), QObject::tr("target"), problem);
    if (b.empty())
        return {};
    if (a.columns != b.columns || a.rows != b.rows || a.x != b.x || a.y != b.y) {
        *problem = QObject::tr("The reports place their tiles on the die differently.");
        return {};
    }
    return a.physicalOrder(session.source().target().tilesPerIpu);
}

std::vector<RecordTableModel::Column> worstColumns() {
    std::vector<RecordTableModel::Column> c{
        {QObject::tr("Tile"), RecordTableModel::countCell, true},
        {QObject::tr("IPU"), RecordTableModel::countCell, true}};
    for (auto& v : ComparisonTableModel::valueColumns({}, RecordTableModel::bytesCell))
        c.push_back(std::move(v));
    return c;
}

} // namespace

TileMemoryCompareModel::TileMemoryCompareModel(std::shared_ptr<CompareSession> session,
                                               QObject* parent)
    : QObject(parent), worst_(worstColumns(), -1, {4}) {
    tilesPerIpu_ = std::uint32_t(std::max<std::int64_t>(1, session->source().target().tilesPerIpu));
    runInBackground<Loaded>(
        this,
        [session] {
            const report::TileMemoryComparison& c = session->tileMemory();
            Loaded l;
            auto s = std::make_shared<CompareSeries>();
            s->source.assign(c.source.begin(), c.source.end());
            s->target.assign(c.target.begin(), c.target.end());
            if (!c.sameTileCount) {
                // The padded side has no such tile: leave it out of that side's curve.
                const std::size_t sourceTiles = std::size_t(session->source().target().numIpus *
                                                            session->source().target().tilesPerIpu);
                const std::size_t targetTiles = std::size_t(session->target().target().numIpus *
                                                            session->target().target().tilesPerIpu);
                s->presence.resize(s->size());
                for (std::size_t i = 0; i < s->size(); ++i)
                    s->presence[i] =
                        std::uint8_t((i < sourceTiles ? 1 : 0) | (i < targetTiles ? 2 : 0));
            }
            l.physicalTiles = sharedPhysicalOrder(*session, c.sameTileCount, &l.placementProblem);
            if (!l.physicalTiles.empty() && l.physicalTiles.size() == s->size()) {
                auto p = std::make_shared<CompareSeries>();
                for (std::uint32_t tile : l.physicalTiles) {
                    p->source.push_back(s->source[tile]);
                    p->target.push_back(s->target[tile]);
                }
                l.physical = std::move(p);
            }
            l.series = std::move(s);
            l.worst = c.worstTiles(kWorstTiles);
            l.sameTileCount = c.sameTileCount;
            return l;
        },
        [this](Loaded l) {
            std::vector<RecordTableModel::Row> rows;
            for (const report::TileDelta& t : l.worst) {
                RecordTableModel::Row r{QVariant::fromValue<qlonglong>(t.tile),
                                        QVariant::fromValue<qlonglong>(t.tile / tilesPerIpu_)};
                report::ComparedValue v;
                v.source = t.source;
                v.target = t.target;
                ComparisonTableModel::appendValue(r, v);
                rows.push_back(std::move(r));
            }
            worst_.setRows(std::move(rows));
            sameTileCount_ = l.sameTileCount;
            series_ = std::move(l.series);
            physical_ = std::move(l.physical);
            physicalTiles_ = std::move(l.physicalTiles);
            placementProblem_ = std::move(l.placementProblem);
            emit loaded();
        },
        [this](const QString& message) {
            error_ = message;
            emit failed(message);
        });
}

std::size_t TileMemoryCompareModel::tileAt(TileOrder order, std::size_t point) const {
    return order == TileOrder::Physical && point < physicalTiles_.size() ? physicalTiles_[point]
                                                                         : point;
}

QString TileMemoryCompareModel::tileLabel(std::size_t tile) const {
    return tr("Tile %1 (IPU %2, tile %3)")
        .arg(tile)
        .arg(tile / tilesPerIpu_)
        .arg(tile % tilesPerIpu_);
}

} // namespace tilescope::gui
