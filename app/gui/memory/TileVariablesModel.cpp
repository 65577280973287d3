#include "TileVariablesModel.hpp"

#include "core/Background.hpp"
#include "core/ReportSession.hpp"
#include "tables/VariableRows.hpp"

#include <algorithm>

namespace tilescope::gui {
namespace {

struct Loaded {
    std::vector<RecordTableModel::Row> rows;
    std::vector<std::int64_t> ids;
    bool limitReached = false;
};

std::vector<RecordTableModel::Column> columns() {
    auto c = variableColumns();
    c.push_back({QObject::tr("On selected tiles"), RecordTableModel::bytesCell, true});
    return c;
}

} // namespace

TileVariablesModel::TileVariablesModel(std::shared_ptr<ReportSession> session, int limit,
                                       QObject* parent)
    : RecordTableModel(columns(), parent), session_(std::move(session)), limit_(limit) {}

std::int64_t TileVariablesModel::variableIdAt(int row) const {
    return row >= 0 && std::size_t(row) < ids_.size() ? ids_[std::size_t(row)] : -1;
}

void TileVariablesModel::setSelection(const TileSelection& tiles) {
    tiles_ = tiles;
    auto session = session_;
    const int limit = limit_;
    load_.start<Loaded>(
        this,
        [session, tiles, limit] {
            return session->read([&](const report::ProfileReader& reader) {
                const auto labels = categoryLabels(reader.memoryCategories());
                std::vector<std::pair<std::uint64_t, report::VariableRecord>> found;
                Loaded out;
                if (tiles.empty()) {
                    for (report::VariableRecord& v : reader.largestVariables(limit + 1))
                        found.emplace_back(v.bytes, std::move(v));
                } else {
                    constexpr std::int64_t kPage = 2048;
                    for (std::int64_t after = -1;;) {
                        auto page = reader.variables(after, kPage, true);
                        for (report::VariableRecord& v : page) {
                            std::uint64_t on = 0;
                            for (const TileSelection::Range& r : tiles.ranges())
                                for (std::uint32_t t = r.first; t <= r.last && t < v.perTile.size();
                                     ++t)
                                    on += v.perTile[t];
                            if (on == 0)
                                continue;
                            v.perTile.clear(); // keep the rows small
                            found.emplace_back(on, std::move(v));
                        }
                        if (std::int64_t(page.size()) < kPage)
                            break;
                        after = page.back().id;
                    }
                    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
                        return a.first > b.first;
                    });
                }
                out.limitReached = int(found.size()) > limit;
                found.resize(std::min(found.size(), std::size_t(limit)));
                for (const auto& [on, v] : found) {
                    RecordTableModel::Row row = variableRow(v, labels);
                    row.push_back(RecordTableModel::u64(on));
                    out.rows.push_back(std::move(row));
                    out.ids.push_back(v.id);
                }
                return out;
            });
        },
        [this](Loaded result) {
            ids_ = std::move(result.ids);
            limitReached_ = result.limitReached;
            setRows(std::move(result.rows));
            emit loaded();
        },
        [this](const QString& message) {
            ids_.clear();
            setRows({});
            emit failed(message);
        });
}

VariableTileSeries VariableTileSeries::fetch(const report::ProfileReader& reader,
                                             const std::vector<std::int64_t>& ids) {
    VariableTileSeries out;
    out.tiles = reader.target().numTiles();
    for (const std::int64_t id : ids) {
        // Ids are the table's row ids: the first variable after id - 1 is the one asked for.
        const auto found = reader.variables(id - 1, 1, true);
        if (found.empty() || found.front().id != id)
            continue; // not in this report (a graph kept across reports of another program)
        const report::VariableRecord& v = found.front();
        out.names << QString::fromStdString(v.name);
        report::PerTile bytes = v.perTile;
        bytes.resize(out.tiles, 0);
        out.bytes.push_back(std::move(bytes));
    }
    return out;
}

} // namespace tilescope::gui
