#include "TileMemoryCompareModel.hpp"

#include "Background.hpp"
#include "CompareSession.hpp"

namespace tilescope::gui {
namespace {

/// What the worker hands back: the canvas series and the worst tiles.
struct Loaded {
    std::shared_ptr<CompareSeries> series;
    std::vector<report::TileDelta> worst;
    bool sameTileCount = true;
};

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
            emit loaded();
        },
        [this](const QString& message) {
            error_ = message;
            emit failed(message);
        });
}

QString TileMemoryCompareModel::tileLabel(std::size_t tile) const {
    return tr("Tile %1 (IPU %2, tile %3)")
        .arg(tile)
        .arg(tile / tilesPerIpu_)
        .arg(tile % tilesPerIpu_);
}

} // namespace tilescope::gui
