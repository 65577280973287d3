#include "ComparisonQueries.hpp"

#include "read/EventBlocks.hpp"
#include "read/ProfileReaderDetail.hpp"
#include "sqlite/Sqlite.hpp"

#include <algorithm>
#include <unordered_map>

namespace tilescope::report::compare {
using detail::optionalInt;
using detail::u64;

std::vector<ProgramRow> readPrograms(const ProfileReader& reader) {
    std::vector<ProgramRow> out;
    auto st = reader.file().database().prepare(
        "SELECT p.id, p.parent_id, p.position, p.kind, n.text, d.text, p.code_bytes "
        "FROM program p LEFT JOIN name n ON n.id = p.name_id "
        "LEFT JOIN name d ON d.id = p.debug_id ORDER BY p.id");
    while (st.step())
        out.push_back({st.int64(0), optionalInt(st, 1), st.int64(2), st.text(3), st.text(4),
                       st.text(5), u64(st, 6)});
    return out;
}

std::vector<StepRow> readSteps(const ProfileReader& reader) {
    std::vector<StepRow> out;
    auto st = reader.file().database().prepare(
        "SELECT s.id, s.program_id, s.kind, n.text, s.estimated_cycles, s.not_always_live_bytes "
        "FROM step s LEFT JOIN compute_set c ON c.id = s.compute_set_id "
        "LEFT JOIN name n ON n.id = c.name_id ORDER BY s.id");
    while (st.step())
        out.push_back({st.int64(0), st.int64(1), st.text(2), st.text(3), u64(st, 4), u64(st, 5)});
    return out;
}

std::vector<RunStepRow> readRunStepCycles(const ProfileReader& reader, const RunRecord& run) {
    std::vector<RunStepRow> out;
    out.reserve(run.numSteps);
    auto st = reader.file().database().prepare(
        "SELECT step_id, cycles FROM run_step WHERE id >= ? AND id < ? ORDER BY id");
    st.bind(1, run.firstRow).bind(2, run.firstRow + static_cast<std::int64_t>(run.numSteps));
    while (st.step())
        out.push_back({st.int64(0), u64(st, 1)});
    return out;
}

std::vector<OperationRow> readOperations(const ProfileReader& reader) {
    auto& db = reader.file().database();
    std::vector<OperationRow> out;
    std::unordered_map<std::int64_t, std::size_t> row;
    auto st = db.prepare(std::string(detail::kOperationColumns) + "ORDER BY o.id");
    while (st.step()) {
        OperationRow o;
        static_cast<OperationRecord&>(o) = detail::operationColumnsFrom(st);
        row[o.id] = out.size();
        out.push_back(std::move(o));
    }
    auto programs = db.prepare(
        "SELECT operation_id, program_id FROM operation_program ORDER BY operation_id, program_id");
    while (programs.step())
        if (auto it = row.find(programs.int64(0)); it != row.end())
            out[it->second].programIds.push_back(programs.int64(1));
    auto bytes = db.prepare("SELECT ov.operation_id, sum(v.bytes) FROM operation_variable ov "
                            "JOIN variable v ON v.id = ov.variable_id GROUP BY ov.operation_id");
    while (bytes.step())
        if (auto it = row.find(bytes.int64(0)); it != row.end())
            out[it->second].variableBytes = u64(bytes, 1);
    return out;
}

std::vector<EventNameRow> readEventStatistics(const HostTraceReader& reader) {
    // Per name: events, complete events and their total duration, from every decoded block.
    std::unordered_map<std::int64_t, EventNameRow> byName;
    auto blocks = reader.file().database().prepare(detail::kBlockColumns);
    detail::forEachBlockEvent(blocks, reader.path(), [&](const HostEvent& e) {
        EventNameRow& row = byName[e.nameId];
        ++row.count;
        if (e.kind == EventKind::Complete) {
            ++row.timedCount;
            row.totalNs += static_cast<std::uint64_t>(*e.endNs - e.startNs);
        }
    });
    auto names = reader.file().database().prepare("SELECT text FROM name WHERE id = ?");
    std::vector<EventNameRow> out;
    out.reserve(byName.size());
    for (auto& [nameId, row] : byName) {
        names.reset();
        row.name = names.bind(1, nameId).step() ? names.text(0) : std::string();
        out.push_back(std::move(row));
    }
    std::sort(out.begin(), out.end(),
              [](const EventNameRow& a, const EventNameRow& b) { return a.name < b.name; });
    return out;
}

} // namespace tilescope::report::compare
