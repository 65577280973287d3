#include "TileExchangesModel.hpp"

#include "core/Background.hpp"
#include "core/ReportSession.hpp"
#include "tables/ReportTableModel.hpp"

#include <algorithm>

namespace tilescope::gui {
namespace {

struct Loaded {
    std::vector<RecordTableModel::Row> rows;
    bool limitReached = false;
};

} // namespace

TileExchangesModel::TileExchangesModel(std::shared_ptr<ReportSession> session, int limit,
                                       QObject* parent)
    : RecordTableModel({{tr("Program"), {}, false},
                        {tr("Kind"), {}, false},
                        {tr("Bytes (all tiles)"), RecordTableModel::bytesCell, true},
                        {tr("Cycles (slowest tile)"), RecordTableModel::countCell, true},
                        {tr("Step"), RecordTableModel::countCell, true},
                        {tr("Tiles taking part"), RecordTableModel::countCell, true},
                        {tr("Cycles there (slowest)"), RecordTableModel::countCell, true}},
                       parent),
      session_(std::move(session)), limit_(limit) {}

void TileExchangesModel::setSelection(const TileSelection& tiles) {
    tiles_ = tiles;
    auto session = session_;
    const int limit = limit_;
    load_.start<Loaded>(
        this,
        [session, tiles, limit] {
            return session->read([&](const report::ProfileReader& reader) {
                Loaded out;
                if (tiles.empty()) {
                    // Every tile: the largest steps from the index, no per-tile series decoded
                    // (a 16-IPU report holds tens of thousands of them, 23,552 tiles each).
                    out.rows = largestExchangeRows(reader, limit + 1);
                    out.limitReached = int(out.rows.size()) > limit;
                    out.rows.resize(std::min(out.rows.size(), std::size_t(limit)));
                    for (Row& row : out.rows) // the per-tile columns: not read for all tiles
                        row.resize(std::size_t(TileCycles) + 1, QVariant());
                    return out;
                }
                std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
                for (const TileSelection::Range& r : tiles.ranges())
                    ranges.emplace_back(r.first, r.last - r.first + 1);
                auto found = reader.exchangeStepsOnTiles(ranges);
                // Without per-tile cycles a step cannot be placed on the selected tiles.
                found.erase(std::remove_if(found.begin(), found.end(),
                                           [](const auto& e) { return !e.perTileRecorded; }),
                            found.end());
                // The steps that keep the selected tiles busiest first.
                std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
                    return a.maxCycles > b.maxCycles;
                });
                out.limitReached = int(found.size()) > limit;
                found.resize(std::min(found.size(), std::size_t(limit)));
                for (const report::ExchangeOnTiles& e : found)
                    out.rows.push_back({QString::fromStdString(e.step.program),
                                        QString::fromStdString(e.step.step.kind),
                                        u64(e.step.step.exchangeBytes),
                                        u64(e.step.step.estimatedCycles),
                                        QVariant::fromValue<qlonglong>(e.step.step.id),
                                        u64(e.tiles), u64(e.maxCycles)});
                return out;
            });
        },
        [this](Loaded result) {
            limitReached_ = result.limitReached;
            setRows(std::move(result.rows));
            emit loaded();
        },
        [this](const QString& message) {
            setRows({});
            emit failed(message);
        });
}

} // namespace tilescope::gui
