#pragma once
// What the profile and host-trace writers share: creating the file with its schema, WAL mode,
// one long transaction committed in large batches, name interning and metadata.

#include "sqlite/Sqlite.hpp"
#include "tilescope/report/Schema.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tilescope::report::detail {

/// How the file is protected while it is written.
enum class WriteMode {
    /// WAL, every commit kept across a killed process; readers may open the file meanwhile.
    Shared,
    /// Nobody sees the file before close() (it is written under a temporary name and renamed
    /// on success, or deleted on failure): no journal and no syncs while writing, one sync at
    /// close. A killed writer leaves an unusable file, which its owner discards anyway.
    Scratch,
};

class WriterSession {
public:
    WriterSession(const std::filesystem::path& path, FileKind kind, bool replaceExisting,
                  std::size_t rowsPerTransaction, WriteMode mode = WriteMode::Shared);
    ~WriterSession();

    sql::Database& db() { return db_; }
    const std::string& path() const { return db_.path(); }

    std::int64_t intern(std::string_view text);
    /// Like intern, but returns NULL-able id for empty strings (optional names).
    std::optional<std::int64_t> internOptional(std::string_view text);
    void setMetadata(std::string_view key, std::string_view value);

    /// Counts rows toward the batch; commits when the batch is full so a killed writer loses at
    /// most one batch.
    void countRows(std::size_t n) {
        pendingRows_ += n;
        if (pendingRows_ >= rowsPerTransaction_)
            commit();
    }
    void commit();
    /// Final commit, then switches the file out of WAL mode so that the finished report is one
    /// self-contained file that opens read-only anywhere (including read-only media).
    void close();
    bool closed() const { return closed_; }

private:
    sql::Database db_;
    sql::Statement insertName_;
    sql::Statement upsertMetadata_;
    std::unordered_map<std::string, std::int64_t> names_;
    std::size_t rowsPerTransaction_;
    std::size_t pendingRows_ = 0;
    WriteMode mode_;
    bool closed_ = false;
};

std::string utcNowIso8601();

} // namespace tilescope::report::detail
