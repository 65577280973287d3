#pragma once
// What ProfileReader's files share (ProfileReader.cpp, ProfileReaderRuns.cpp,
// ProfileReaderExecution.cpp, ProfileReaderOperations.cpp): column decoding that never throws a
// bare error, damage reported against the file, and the reader's cached statements.

#include "sqlite/Sqlite.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ReportError.hpp"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tilescope::report {
namespace detail {

inline std::optional<std::int64_t> optionalInt(const sql::Statement& st, int col) {
    if (st.isNull(col))
        return std::nullopt;
    return st.int64(col);
}

/// A count or cycle column; a negative value (damage) reads as 0.
inline std::uint64_t u64(const sql::Statement& st, int col) {
    const std::int64_t v = st.int64(col);
    return v < 0 ? 0 : static_cast<std::uint64_t>(v);
}

/// Blob decoding reports damage without knowing the file: errors leaving `f` get the report's
/// path, so every reader failure names the file.
template <typename F> auto inFile(const std::string& path, F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const ReportError& e) {
        if (!e.file().empty())
            throw;
        throw ReportError(path, e.problem());
    }
}

/// Reads every row of `st` through `read`.
template <typename Read> auto collectRows(const std::string& path, sql::Statement& st, Read read) {
    return inFile(path, [&] {
        std::vector<decltype(read(st))> out;
        while (st.step())
            out.push_back(read(st));
        return out;
    });
}

inline std::int64_t scalar(sql::Database& db, const char* q) {
    auto st = db.prepare(q);
    return st.step() ? st.int64(0) : 0;
}

} // namespace detail

struct ProfileReader::CachedStatements {
    std::optional<sql::Statement> runLodSteps, runIpuLod;
    std::set<std::int64_t> ipuPyramidsBuilt; // files before v3: runs migrated so far
};

} // namespace tilescope::report
