#include "TileVerticesModel.hpp"

#include "core/Background.hpp"
#include "core/ReportSession.hpp"

#include <algorithm>
#include <map>

namespace tilescope::gui {

TileVerticesModel::TileVerticesModel(std::shared_ptr<ReportSession> session, QObject* parent)
    : RecordTableModel({{tr("Vertex type"), {}, false},
                        {tr("Compute set"), {}, false},
                        {tr("Count"), RecordTableModel::countCell, true},
                        {tr("State"), RecordTableModel::bytesCell, true},
                        {tr("Code/tile"), RecordTableModel::bytesCell, true},
                        {tr("Tiles"), RecordTableModel::countCell, true}},
                       parent),
      session_(std::move(session)) {}

void TileVerticesModel::setSelection(const TileSelection& tiles) {
    tiles_ = tiles;
    auto session = session_;
    load_.start<std::vector<Row>>(
        this,
        [session, tiles] {
            return session->read([&](const report::ProfileReader& reader) {
                std::map<std::int64_t, report::VertexTypeRecord> types;
                for (const auto& t : reader.vertexTypes())
                    types[t.id] = t;
                const bool all = tiles.empty();
                std::vector<Row> rows;
                auto addRow = [&](const QString& computeSet, std::int64_t typeId,
                                  std::uint64_t count, QVariant holding) {
                    const auto type = types.find(typeId);
                    const report::VertexTypeRecord none;
                    const report::VertexTypeRecord& vt = type != types.end() ? type->second : none;
                    rows.push_back({QString::fromStdString(vt.name), computeSet, u64(count),
                                    u64(count * vt.stateBytes), u64(vt.codeBytes),
                                    std::move(holding)});
                };
                constexpr std::int64_t kPage = 512;
                if (all) {
                    // The stored counts answer for every tile: one query, no per-tile data (the
                    // holding-tile count would need it, so that column stays empty).
                    std::map<std::int64_t, QString> names;
                    for (std::int64_t after = 0;;) {
                        const auto sets = reader.computeSets(after, kPage);
                        for (const report::ComputeSetRecord& cs : sets)
                            names[cs.id] = QString::fromStdString(cs.name);
                        if (std::int64_t(sets.size()) < kPage)
                            break;
                        after = sets.back().id;
                    }
                    for (const auto& inst : reader.vertexInstances(std::nullopt, false))
                        if (inst.count > 0)
                            addRow(names[inst.computeSetId], inst.vertexTypeId, inst.count, {});
                } else {
                    // One scan decoding only the selected ranges of each row's per-tile blob:
                    // a 16-IPU report's blobs hold 23,552 tiles each and a big graph has tens of
                    // thousands of rows, so expanding every blob was what made this slow.
                    std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
                    for (const TileSelection::Range& r : tiles.ranges())
                        ranges.emplace_back(r.first, r.last - r.first + 1);
                    for (const auto& inst : reader.vertexInstancesOnTiles(ranges))
                        addRow(QString::fromStdString(inst.computeSet), inst.vertexTypeId,
                               inst.count, u64(inst.holdingTiles));
                }
                std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
                    return a[State].toULongLong() > b[State].toULongLong();
                });
                return rows;
            });
        },
        [this](std::vector<Row> rows) {
            setRows(std::move(rows));
            emit loaded();
        },
        [this](const QString& message) {
            setRows({});
            emit failed(message);
        });
}

} // namespace tilescope::gui
