#include "InsightsModel.hpp"

#include "core/Background.hpp"
#include "core/Format.hpp"
#include "core/ReportSession.hpp"
#include "tables/ReportTableModel.hpp"

#include <algorithm>
#include <map>
#include <numeric>

namespace tilescope::gui {
namespace {

struct Loaded {
    InsightsModel::Histogram histogram;
    std::vector<RecordTableModel::Row> topTiles, vertexTypes, variables, exchanges;
    TileAdvice advice;
};

} // namespace

InsightsModel::InsightsModel(std::shared_ptr<ReportSession> session, QObject* parent)
    : QObject(parent), session_(std::move(session)),
      topTiles_({{tr("Tile"), RecordTableModel::countCell, true},
                 {tr("IPU"), {}, true},
                 {tr("Tile on IPU"), {}, true},
                 {tr("Bytes"), RecordTableModel::bytesCell, true},
                 {tr("Of its memory"), RecordTableModel::percentCell, true}}),
      vertexTypes_({{tr("Vertex type"), {}, false},
                    {tr("Instances"), RecordTableModel::countCell, true},
                    {tr("State"), RecordTableModel::bytesCell, true},
                    {tr("Each"), RecordTableModel::bytesCell, true},
                    {tr("Code/tile"), RecordTableModel::bytesCell, true}}),
      variables_({{tr("Always-live variable"), {}, false},
                  {tr("Bytes"), RecordTableModel::bytesCell, true},
                  {tr("Type"), {}, false},
                  {tr("Elements"), RecordTableModel::countCell, true}}),
      exchanges_(exchangeStepColumns()),
      tileContents_({{tr("What"), {}, false},
                     {tr("Name"), {}, false},
                     {tr("Bytes on the tile"), RecordTableModel::bytesCell, true},
                     {tr("Detail"), {}, false}}),
      recommendations_({{tr("Change"), {}, false},
                        {tr("Estimated saving"), RecordTableModel::bytesCell, true},
                        {tr("Applies to"), {}, false},
                        {tr("Why"), {}, false}}) {}

double InsightsModel::usedFraction() const {
    const auto& s = session_->summary();
    return s.totalCapacityBytes ? double(s.totalBytesIncludingGaps) / double(s.totalCapacityBytes)
                                : 0.0;
}

bool InsightsModel::fits() const {
    const auto& s = session_->summary();
    return !s.outOfMemory && s.tilesOverCapacity == 0;
}

void InsightsModel::load() {
    auto session = session_;
    runInBackground<Loaded>(
        this,
        [session] {
            return session->read([](const report::ProfileReader& reader) {
                Loaded out;
                const report::TargetInfo& target = reader.target();
                const report::PerTile totals = reader.tileMemoryTotal(true);

                // Fullest tiles first; ties by tile number so the order is stable.
                std::vector<std::uint32_t> order(totals.size());
                std::iota(order.begin(), order.end(), 0u);
                const std::size_t top = std::min<std::size_t>(kTopTiles, order.size());
                std::partial_sort(order.begin(), order.begin() + std::ptrdiff_t(top), order.end(),
                                  [&](std::uint32_t a, std::uint32_t b) {
                                      return totals[a] != totals[b] ? totals[a] > totals[b] : a < b;
                                  });
                for (std::size_t i = 0; i < top; ++i) {
                    const std::uint32_t t = order[i];
                    out.topTiles.push_back(
                        {QVariant::fromValue<qlonglong>(t), t / target.tilesPerIpu,
                         t % target.tilesPerIpu, RecordTableModel::u64(totals[t]),
                         target.bytesPerTile ? double(totals[t]) / double(target.bytesPerTile)
                                             : 0.0});
                }

                Histogram& h = out.histogram;
                h.bytesPerTile = target.bytesPerTile;
                const std::uint64_t largest =
                    totals.empty() ? 0 : *std::max_element(totals.begin(), totals.end());
                h.maximum = double(std::max(largest + 1, target.bytesPerTile));
                h.binBytes = h.maximum / kHistogramBins;
                h.tiles.assign(kHistogramBins, 0);
                for (std::uint64_t v : totals)
                    ++h.tiles[std::min<std::size_t>(kHistogramBins - 1,
                                                    std::size_t(double(v) / h.binBytes))];

                // Per vertex type: instances over all compute sets (counts only: the per-tile
                // blobs would mean decoding one tile vector per compute set and type).
                std::map<std::int64_t, std::uint64_t> instances;
                for (const auto& inst : reader.vertexInstances(std::nullopt, false))
                    instances[inst.vertexTypeId] += inst.count;
                std::vector<RecordTableModel::Row> rows;
                for (const auto& type : reader.vertexTypes()) {
                    const std::uint64_t count = instances[type.id];
                    rows.push_back({QString::fromStdString(type.name),
                                    QVariant::fromValue<qlonglong>(qlonglong(count)),
                                    RecordTableModel::u64(type.stateBytes * count),
                                    RecordTableModel::u64(type.stateBytes),
                                    RecordTableModel::u64(type.codeBytes)});
                }
                std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
                    return a[2].toULongLong() > b[2].toULongLong();
                });
                out.vertexTypes = std::move(rows);

                for (const auto& v : reader.largestAlwaysLiveVariables(kLargestVariables))
                    out.variables.push_back(
                        {QString::fromStdString(v.name), RecordTableModel::u64(v.bytes),
                         QString::fromStdString(v.elementType),
                         QVariant::fromValue<qlonglong>(qlonglong(v.numElements))});
                out.exchanges = largestExchangeRows(reader, kLargestExchanges);
                out.advice = TileAdvice::fullestTile(reader);
                return out;
            });
        },
        [this](Loaded loaded) {
            histogram_ = std::move(loaded.histogram);
            topTiles_.setRows(std::move(loaded.topTiles));
            vertexTypes_.setRows(std::move(loaded.vertexTypes));
            variables_.setRows(std::move(loaded.variables));
            exchanges_.setRows(std::move(loaded.exchanges));
            advice_ = std::move(loaded.advice);
            std::vector<RecordTableModel::Row> parts, recommendations;
            for (const auto& p : advice_.parts)
                parts.push_back({p.kind, p.name,
                                 p.kind == QStringLiteral("exchange")
                                     ? QVariant()
                                     : RecordTableModel::u64(p.bytes),
                                 p.detail});
            for (const auto& r : advice_.recommendations)
                recommendations.push_back(
                    {r.action, RecordTableModel::u64(r.savingBytes), r.scope, r.why});
            tileContents_.setRows(std::move(parts));
            recommendations_.setRows(std::move(recommendations));
            loaded_ = true;
            emit loadedChanged();
        },
        [this](const QString& message) { emit failed(message); });
}

} // namespace tilescope::gui
