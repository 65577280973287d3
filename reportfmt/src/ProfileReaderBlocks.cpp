// Reader queries of lightweight-profiling blocks (format v5; older files have an empty table).
#include "Sqlite.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ReportError.hpp"

#include <array>

namespace tilescope::report {
namespace {

constexpr std::array<std::string_view, kNumBlockKinds> kBlockKindNames = {
    "Common",          "StreamCopyBegin", "StreamCopyMid", "StreamCopyEnd",
    "BlockFlushBegin", "BlockFlushMid",   "BlockFlushEnd", "Overflow",
};

std::uint64_t u64(const sql::Statement& st, int col) {
    const std::int64_t v = st.int64(col);
    return v < 0 ? 0 : static_cast<std::uint64_t>(v);
}

BlockKind kindAt(const sql::Statement& st, int col, const std::string& path) {
    const auto k = st.int64(col);
    if (k < 0 || k >= kNumBlockKinds)
        throw ReportError(path, "block of unknown kind " + std::to_string(k));
    return static_cast<BlockKind>(k);
}

} // namespace

std::string_view blockKindName(BlockKind kind) {
    return kBlockKindNames[static_cast<std::size_t>(kind)];
}

std::optional<BlockKind> blockKindFromName(std::string_view name) {
    for (std::size_t i = 0; i < kBlockKindNames.size(); ++i)
        if (kBlockKindNames[i] == name)
            return static_cast<BlockKind>(i);
    return std::nullopt;
}

std::uint64_t ProfileReader::numBlocks() const {
    auto st = file_.database().prepare("SELECT count(*) FROM block");
    return st.step() ? u64(st, 0) : 0;
}

std::vector<std::uint32_t> ProfileReader::blockTiles() const {
    std::vector<std::uint32_t> out;
    auto st = file_.database().prepare("SELECT DISTINCT tile FROM block ORDER BY tile");
    while (st.step())
        out.push_back(static_cast<std::uint32_t>(u64(st, 0)));
    return out;
}

std::vector<BlockRecord> ProfileReader::blocks(std::optional<std::uint32_t> tile) const {
    std::vector<BlockRecord> out;
    // Outer blocks before the blocks they contain: by start, then longest first.
    auto st = file_.database().prepare(
        std::string("SELECT id, run_index, tile, kind, program_id, step_id, cycles_from, "
                    "cycles_to, dropped FROM block") +
        (tile ? " WHERE tile = ?" : "") + " ORDER BY tile, cycles_from, cycles_to DESC, id");
    if (tile)
        st.bind(1, static_cast<std::int64_t>(*tile));
    while (st.step()) {
        BlockRecord b;
        b.id = st.int64(0);
        b.runIndex = st.int64(1);
        b.tile = static_cast<std::uint32_t>(u64(st, 2));
        b.kind = kindAt(st, 3, path());
        if (!st.isNull(4))
            b.programId = st.int64(4);
        if (!st.isNull(5))
            b.stepId = st.int64(5);
        b.cyclesFrom = u64(st, 6);
        b.cyclesTo = u64(st, 7);
        b.dropped = u64(st, 8);
        out.push_back(b);
    }
    return out;
}

std::vector<BlockStatistics> ProfileReader::blockStatistics() const {
    std::vector<BlockStatistics> out;
    auto st = file_.database().prepare(
        "SELECT b.kind, n.text, count(*), min(b.cycles_to - b.cycles_from), "
        "avg(b.cycles_to - b.cycles_from), max(b.cycles_to - b.cycles_from), sum(b.dropped) "
        "FROM block b LEFT JOIN program p ON p.id = b.program_id "
        "LEFT JOIN name n ON n.id = p.name_id GROUP BY b.kind, n.text ORDER BY b.kind, n.text");
    while (st.step()) {
        BlockStatistics s;
        s.kind = kindAt(st, 0, path());
        s.name = st.isNull(1) ? std::string(blockKindName(s.kind)) : st.text(1);
        s.count = u64(st, 2);
        s.minCycles = u64(st, 3);
        s.meanCycles = st.real(4);
        s.maxCycles = u64(st, 5);
        s.dropped = u64(st, 6);
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace tilescope::report
