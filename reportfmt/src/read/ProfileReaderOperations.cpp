// ProfileReader's queries for the Operations view and for the exchange, variable and vertex tables
// of the Memory and Insights views: what each operation created, the largest steps and variables,
// and the vertices on a set of tiles.
// Totals are computed by SQLite (correlated subqueries over the operation_* link tables and the
// step_by_program index), so an operation list costs one statement whatever the report size.

#include "ProfileReaderDetail.hpp"
#include "VariableRows.hpp"
#include "sqlite/Sqlite.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/TileSeries.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace tilescope::report {
using detail::inFile;
using detail::optionalInt;
using detail::u64;

namespace {

/// A query of steps with their program's name (columns as namedStepFrom reads them), `extra`
/// columns after them, then `rest` (WHERE, ORDER BY ...).
std::string namedStepQuery(const char* extra, const char* rest) {
    return std::string("SELECT s.id, s.program_id, s.kind, s.phase, s.compute_set_id, "
                       "s.exchange_bytes, s.estimated_cycles, s.not_always_live_bytes, "
                       "s.max_tile_not_always_live_bytes, n.text") +
           extra +
           " FROM step s LEFT JOIN program p ON p.id = s.program_id LEFT JOIN name n ON n.id = "
           "p.name_id " +
           rest;
}

NamedStep namedStepFrom(const sql::Statement& st) {
    return {detail::stepColumnsFrom(st), st.text(9)};
}

std::vector<VariableRecord> variableRows(const std::string& path, sql::Statement& st,
                                         bool withPerTile) {
    std::vector<VariableRecord> out;
    inFile(path, [&] {
        while (st.step())
            out.push_back(detail::variableRowFrom(st, withPerTile));
    });
    return out;
}

} // namespace

std::vector<OperationTotals> ProfileReader::operationTotals(std::int64_t offset,
                                                            std::int64_t limit) const {
    std::vector<OperationTotals> out;
    auto st = file_.database().prepare(
        "SELECT o.id, n.text, d.text, o.layer, o.flops, "
        "(SELECT info FROM operation_debug g WHERE g.operation_id = o.id), "
        "(SELECT count(*) FROM operation_program op JOIN step s ON s.program_id = op.program_id "
        " WHERE op.operation_id = o.id), "
        "(SELECT coalesce(sum(s.estimated_cycles), 0) FROM operation_program op "
        " JOIN step s ON s.program_id = op.program_id WHERE op.operation_id = o.id), "
        "(SELECT coalesce(sum(p.code_bytes), 0) FROM operation_program op "
        " JOIN program p ON p.id = op.program_id WHERE op.operation_id = o.id), "
        "(SELECT coalesce(sum(v.bytes), 0) FROM operation_variable ov "
        " JOIN variable v ON v.id = ov.variable_id WHERE ov.operation_id = o.id) "
        "FROM operation o LEFT JOIN name n ON n.id = o.name_id "
        "LEFT JOIN name d ON d.id = o.debug_path_id WHERE o.id > ? ORDER BY o.id LIMIT ?");
    st.bind(1, offset).bind(2, limit);
    while (st.step()) {
        OperationTotals t;
        t.operation = detail::operationColumnsFrom(st);
        t.steps = u64(st, 6);
        t.estimatedCycles = u64(st, 7);
        t.codeBytes = u64(st, 8);
        t.variableBytes = u64(st, 9);
        out.push_back(std::move(t));
    }
    return out;
}

std::vector<NamedStep> ProfileReader::operationSteps(std::int64_t operationId) const {
    std::vector<NamedStep> out;
    auto st = file_.database().prepare(
        namedStepQuery("", "WHERE s.program_id IN (SELECT program_id FROM "
                           "operation_program WHERE operation_id = ?) ORDER BY s.id"));
    st.bind(1, operationId);
    while (st.step())
        out.push_back(namedStepFrom(st));
    return out;
}

std::vector<VariableRecord> ProfileReader::operationVariables(std::int64_t operationId,
                                                              bool withPerTile) const {
    auto st = file_.database().prepare(detail::variableRowQuery(
        withPerTile, "WHERE v.id IN (SELECT variable_id FROM operation_variable "
                     "WHERE operation_id = ?) ORDER BY v.bytes DESC, v.id"));
    st.bind(1, operationId);
    return variableRows(path(), st, withPerTile);
}

std::vector<VertexInstancesOnTiles> ProfileReader::vertexInstancesOnTiles(
    const std::vector<std::pair<std::uint32_t, std::uint32_t>>& ranges) const {
    std::vector<VertexInstancesOnTiles> out;
    if (ranges.empty())
        return out;
    // One scan; each blob is decoded over the selected ranges only (a packed blob is read at the
    // ranges, a run-length one walked to the last range's end), never expanded to every tile.
    auto st = file_.database().prepare(
        "SELECT vi.compute_set_id, vi.vertex_type_id, vi.per_tile, n.text "
        "FROM vertex_instances vi LEFT JOIN compute_set cs ON cs.id = vi.compute_set_id "
        "LEFT JOIN name n ON n.id = cs.name_id ORDER BY vi.compute_set_id, vi.vertex_type_id");
    std::vector<std::uint64_t> part;
    inFile(path(), [&] {
        while (st.step()) {
            const auto b = st.blob(2);
            std::uint64_t count = 0, holding = 0;
            for (const auto& [first, n] : ranges) {
                TileSeries::decodeRange(b.data(), b.size(), first, n, part);
                for (std::uint64_t v : part) {
                    count += v;
                    holding += v > 0;
                }
            }
            if (count > 0)
                out.push_back({st.int64(0), st.text(3), st.int64(1), count, holding});
        }
    });
    return out;
}

std::vector<NamedStep> ProfileReader::largestExchangeSteps(std::int64_t limit) const {
    std::vector<NamedStep> out;
    auto st = file_.database().prepare(
        namedStepQuery("", "WHERE s.exchange_bytes > 0 "
                           "ORDER BY s.exchange_bytes DESC, s.id LIMIT ?"));
    st.bind(1, limit);
    while (st.step())
        out.push_back(namedStepFrom(st));
    return out;
}

std::vector<ExchangeOnTiles> ProfileReader::exchangeStepsOnTiles(
    const std::vector<std::pair<std::uint32_t, std::uint32_t>>& ranges) const {
    std::vector<ExchangeOnTiles> out;
    if (ranges.empty())
        return out;
    auto st = file_.database().prepare(
        namedStepQuery(", s.estimated_per_tile", "WHERE s.exchange_bytes > 0 ORDER BY s.id"));
    std::vector<std::uint64_t> part;
    inFile(path(), [&] {
        while (st.step()) {
            ExchangeOnTiles e;
            if (st.isNull(10)) {
                e.perTileRecorded = false;
                e.step = namedStepFrom(st);
                out.push_back(std::move(e));
                continue;
            }
            const auto b = st.blob(10);
            for (const auto& [first, n] : ranges) {
                TileSeries::decodeRange(b.data(), b.size(), first, n, part);
                for (std::uint64_t v : part) {
                    e.tiles += v > 0;
                    e.maxCycles = std::max(e.maxCycles, v);
                }
            }
            if (e.tiles == 0)
                continue;
            e.step = namedStepFrom(st);
            out.push_back(std::move(e));
        }
    });
    return out;
}

std::vector<VariableRecord> ProfileReader::largestVariables(std::int64_t limit) const {
    auto st = file_.database().prepare(
        detail::variableRowQuery(false, "ORDER BY v.bytes DESC, v.id LIMIT ?"));
    st.bind(1, limit);
    return variableRows(path(), st, false);
}

} // namespace tilescope::report
