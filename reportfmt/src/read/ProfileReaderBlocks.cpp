// Reader queries of lightweight-profiling blocks (format v5; older files have an empty table).
#include "ProfileReaderDetail.hpp"
#include "sqlite/Sqlite.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ReportError.hpp"

#include <array>

namespace tilescope::report {
namespace {

constexpr std::array<std::string_view, kNumBlockKinds> kBlockKindNames = {
    "Common",          "StreamCopyBegin", "StreamCopyMid", "StreamCopyEnd",
    "BlockFlushBegin", "BlockFlushMid",   "BlockFlushEnd", "Overflow",
};

using detail::u64;

BlockKind kindAt(const sql::Statement& st, int col, const std::string& path) {
    const auto k = st.int64(col);
    if (k < 0 || k >= kNumBlockKinds)
        throw ReportError(path, "block of unknown kind " + std::to_string(k));
    return static_cast<BlockKind>(k);
}

/// A block from columns 0 to 8: id, tile, kind, program_id, step_id, cycles_from, cycles_to,
/// dropped and run_start; the caller sets the run.
BlockRecord blockColumnsFrom(const sql::Statement& st, const std::string& path) {
    BlockRecord b;
    b.id = st.int64(0);
    b.tile = static_cast<std::uint32_t>(u64(st, 1));
    b.kind = kindAt(st, 2, path);
    if (!st.isNull(3))
        b.programId = st.int64(3);
    if (!st.isNull(4))
        b.stepId = st.int64(4);
    b.cyclesFrom = u64(st, 5);
    b.cyclesTo = u64(st, 6);
    b.dropped = u64(st, 7);
    b.runStartCycle = u64(st, 8);
    return b;
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
        std::string("SELECT id, tile, kind, program_id, step_id, cycles_from, cycles_to, "
                    "dropped, run_start, run_index FROM block") +
        (tile ? " WHERE tile = ?" : "") + " ORDER BY tile, cycles_from, cycles_to DESC, id");
    if (tile)
        st.bind(1, static_cast<std::int64_t>(*tile));
    while (st.step()) {
        BlockRecord b = blockColumnsFrom(st, path());
        b.runIndex = st.int64(9);
        out.push_back(b);
    }
    return out;
}

std::vector<BlockRecord> ProfileReader::blocksOfRun(std::int64_t runIndex, std::uint64_t fromCycle,
                                                    std::uint64_t toCycle, std::int64_t limit,
                                                    std::vector<std::string>* names) const {
    std::vector<BlockRecord> out;
    auto st = file_.database().prepare(
        "SELECT b.id, b.tile, b.kind, b.program_id, b.step_id, b.cycles_from, b.cycles_to, "
        "b.dropped, b.run_start, n.text FROM block b LEFT JOIN program p ON p.id = b.program_id "
        "LEFT JOIN name n ON n.id = p.name_id WHERE b.run_index = ? "
        "AND b.cycles_to - b.run_start >= ? AND b.cycles_from - b.run_start < ? "
        "ORDER BY b.tile, b.cycles_from, b.cycles_to DESC, b.id LIMIT ?");
    st.bind(1, runIndex).bind(2, fromCycle).bind(3, toCycle).bind(4, limit);
    while (st.step()) {
        BlockRecord b = blockColumnsFrom(st, path());
        b.runIndex = runIndex;
        if (names)
            names->push_back(st.isNull(9) ? std::string(blockKindName(b.kind)) : st.text(9));
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
