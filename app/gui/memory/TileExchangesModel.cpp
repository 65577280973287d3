#include "TileExchangesModel.hpp"

#include "core/Background.hpp"
#include "core/ReportSession.hpp"

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
                std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
                if (tiles.empty())
                    ranges.emplace_back(0, reader.target().numTiles());
                for (const TileSelection::Range& r : tiles.ranges())
                    ranges.emplace_back(r.first, r.last - r.first + 1);
                auto found = reader.exchangeStepsOnTiles(ranges);
                // Without per-tile cycles a step cannot be placed on the selected tiles.
                if (!tiles.empty())
                    found.erase(std::remove_if(found.begin(), found.end(),
                                               [](const auto& e) { return !e.perTileRecorded; }),
                                found.end());
                // Selected tiles: the steps that keep them busiest first; all: the largest.
                std::stable_sort(found.begin(), found.end(), [&](const auto& a, const auto& b) {
                    const auto ka = tiles.empty() ? a.step.step.exchangeBytes : a.maxCycles;
                    const auto kb = tiles.empty() ? b.step.step.exchangeBytes : b.maxCycles;
                    return ka > kb;
                });
                Loaded out;
                out.limitReached = int(found.size()) > limit;
                found.resize(std::min(found.size(), std::size_t(limit)));
                for (const report::ExchangeOnTiles& e : found)
                    out.rows.push_back({QString::fromStdString(e.step.program),
                                        QString::fromStdString(e.step.step.kind),
                                        u64(e.step.step.exchangeBytes),
                                        u64(e.step.step.estimatedCycles),
                                        QVariant::fromValue<qlonglong>(e.step.step.id),
                                        e.perTileRecorded ? u64(e.tiles) : QVariant(),
                                        e.perTileRecorded ? u64(e.maxCycles) : QVariant()});
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
