#include "TileComputeSetsModel.hpp"

#include "core/Background.hpp"
#include "core/ReportSession.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace tilescope::gui {
namespace {

struct ComputeSetFigures {
    QString name;
    std::uint64_t vertices = 0;
    std::set<std::int64_t> types;
    std::uint64_t state = 0;
    std::uint64_t tiles = 0; // the most tiles any of its vertex types occupies there
    bool tilesKnown = false;
    std::uint64_t steps = 0;
    std::uint64_t cycles = 0;
};

} // namespace

TileComputeSetsModel::TileComputeSetsModel(std::shared_ptr<ReportSession> session, QObject* parent)
    : RecordTableModel({{tr("Compute set"), {}, false},
                        {tr("Vertices"), RecordTableModel::countCell, true},
                        {tr("Vertex types"), RecordTableModel::countCell, true},
                        {tr("State"), RecordTableModel::bytesCell, true},
                        {tr("Tiles"), RecordTableModel::countCell, true},
                        {tr("Steps"), RecordTableModel::countCell, true},
                        {tr("Est. cycles"), RecordTableModel::countCell, true}},
                       parent),
      session_(std::move(session)) {}

void TileComputeSetsModel::setSelection(const TileSelection& tiles) {
    tiles_ = tiles;
    auto session = session_;
    load_.start<std::vector<Row>>(
        this,
        [session, tiles] {
            return session->read([&](const report::ProfileReader& reader) {
                std::map<std::int64_t, std::uint64_t> stateBytes;
                for (const auto& t : reader.vertexTypes())
                    stateBytes[t.id] = t.stateBytes;
                std::map<std::int64_t, ComputeSetFigures> sets;
                auto add = [&](std::int64_t cs, std::int64_t type, std::uint64_t count) {
                    ComputeSetFigures& f = sets[cs];
                    f.vertices += count;
                    f.types.insert(type);
                    f.state += count * stateBytes[type];
                };
                if (tiles.empty()) {
                    for (const auto& inst : reader.vertexInstances(std::nullopt, false))
                        if (inst.count > 0)
                            add(inst.computeSetId, inst.vertexTypeId, inst.count);
                } else {
                    std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
                    for (const TileSelection::Range& r : tiles.ranges())
                        ranges.emplace_back(r.first, r.last - r.first + 1);
                    for (const auto& inst : reader.vertexInstancesOnTiles(ranges)) {
                        add(inst.computeSetId, inst.vertexTypeId, inst.count);
                        ComputeSetFigures& f = sets[inst.computeSetId];
                        f.tiles = std::max(f.tiles, inst.holdingTiles);
                        f.tilesKnown = true;
                    }
                }
                // Names, and the steps that run each compute set (a page of each at a time).
                constexpr std::int64_t kPage = 4096;
                for (std::int64_t after = -1;;) {
                    const auto page = reader.computeSets(after, kPage);
                    for (const report::ComputeSetRecord& cs : page)
                        if (auto it = sets.find(cs.id); it != sets.end())
                            it->second.name = QString::fromStdString(cs.name);
                    if (std::int64_t(page.size()) < kPage)
                        break;
                    after = page.back().id;
                }
                const std::int64_t stepCount = reader.counts().steps;
                for (std::int64_t first = 0; first < stepCount; first += kPage)
                    for (const report::StepRecord& s : reader.steps(first, kPage))
                        if (s.computeSetId)
                            if (auto it = sets.find(*s.computeSetId); it != sets.end()) {
                                ++it->second.steps;
                                it->second.cycles += s.estimatedCycles;
                            }
                std::vector<Row> rows;
                rows.reserve(sets.size());
                for (const auto& [id, f] : sets)
                    rows.push_back({f.name.isEmpty() ? tr("compute set %1").arg(id) : f.name,
                                    u64(f.vertices), u64(f.types.size()), u64(f.state),
                                    f.tilesKnown ? u64(f.tiles) : QVariant(), u64(f.steps),
                                    u64(f.cycles)});
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
