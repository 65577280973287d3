#include "TileDetailsModel.hpp"

#include "TileMemoryModel.hpp"
#include "core/Format.hpp"

namespace tilescope::gui {

TileDetailsModel::TileDetailsModel(const TileMemoryModel& memory, QObject* parent)
    : RecordTableModel({}, parent), memory_(memory) {
    connect(&memory, &TileMemoryModel::loadedChanged, this, &TileDetailsModel::rebuild);
}

void TileDetailsModel::setSelection(const TileSelection& tiles) {
    tiles_ = tiles;
    rebuild();
}

void TileDetailsModel::rebuild() {
    std::vector<Column> columns = {{tr("Category"), {}, false}, {tr("Group"), {}, false}};
    const QStringList regions = memory_.regionNames();
    for (const QString& r : regions)
        columns.push_back({r, RecordTableModel::bytesCell, true});
    columns.push_back({tr("Total"), RecordTableModel::bytesCell, true});
    setColumns(std::move(columns));
    if (!memory_.isLoaded())
        return;
    TileSelection tiles = tiles_;
    if (tiles.empty() && memory_.tileCount() > 0)
        tiles = TileSelection::range(0, memory_.tileCount() - 1);
    covered_ = tiles.count();
    std::vector<Row> rows;
    std::vector<std::uint64_t> regionTotals(std::size_t(regions.size()), 0);
    std::uint64_t grandTotal = 0;
    for (const auto& c : memory_.categoryBytes(tiles)) {
        Row row = {c.label, c.group};
        std::uint64_t sum = 0;
        for (std::size_t r = 0; r < c.perRegion.size(); ++r) {
            row.push_back(QVariant::fromValue<qulonglong>(c.perRegion[r]));
            regionTotals[r] += c.perRegion[r];
            sum += c.perRegion[r];
        }
        row.push_back(QVariant::fromValue<qulonglong>(sum));
        grandTotal += sum;
        rows.push_back(std::move(row));
    }
    Row total = {tr("Total"), QString()};
    for (std::uint64_t v : regionTotals)
        total.push_back(QVariant::fromValue<qulonglong>(v));
    total.push_back(QVariant::fromValue<qulonglong>(grandTotal));
    rows.push_back(std::move(total));
    setRows(std::move(rows));
}

} // namespace tilescope::gui
