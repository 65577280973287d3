#include "WriterSession.hpp"

#include "tilescope/report/ReportError.hpp"
#include "tilescope/report/Version.hpp"

#include <chrono>
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <system_error>

namespace tilescope::report::detail {
namespace {

sql::Database openForWriting(const std::filesystem::path& path, bool replaceExisting) {
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) {
        if (!replaceExisting)
            throw ReportError(path.string(), "file exists and replacing it was not requested");
        for (const char* suffix : {"", "-wal", "-shm", "-journal"})
            std::filesystem::remove(path.string() + suffix, ec);
    }
    if (path.has_parent_path())
        std::filesystem::create_directories(path.parent_path(), ec);
    return sql::Database(path.string(), sql::Database::Mode::Create);
}

} // namespace

std::string utcNowIso8601() {
    const auto now = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
    return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", now);
}

WriterSession::WriterSession(const std::filesystem::path& path, FileKind kind, bool replaceExisting,
                             std::size_t rowsPerTransaction, WriteMode mode)
    : db_(openForWriting(path, replaceExisting)), rowsPerTransaction_(rowsPerTransaction),
      mode_(mode) {
    // 16 KiB pages (set before the first table and before WAL): bulk appends touch a quarter as
    // many pages as with the default 4 KiB (~10% faster); remote reads fetch fewer, larger pages.
    db_.exec("PRAGMA page_size=16384");
    // WAL lets readers open the report while it is written; synchronous=NORMAL keeps every commit
    // across a killed process (the WAL is in the page cache), and only risks the last commits on
    // power loss, which a profiler can afford for a large gain in write speed.
    // Checkpoints copy WAL pages into the file a second time: letting the WAL reach 256 MiB between
    // them (instead of SQLite's 16 MiB at this page size) halves the bytes written by large bulk
    // writes; the last checkpoint happens when the writer closes.
    // A scratch file is written once, straight into place: no WAL pages copied again by the
    // checkpoints, no syncs until close() (a fifth of a bulk import's time).
    if (mode == WriteMode::Scratch)
        db_.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-65536; "
                 "PRAGMA foreign_keys=OFF");
    else
        db_.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-65536; "
                 "PRAGMA wal_autocheckpoint=16384; PRAGMA foreign_keys=OFF");
    db_.exec("BEGIN");
    for (const SchemaObject& o :
         kind == FileKind::Profile ? Schema::profile() : Schema::hostTrace())
        if (!o.createdAtClose && o.inVersion(Schema::currentVersion(kind)))
            db_.exec(o.sql);
    db_.exec(fmt::format("PRAGMA user_version={}", Schema::currentVersion(kind)));
    insertName_ = db_.prepare("INSERT INTO name(text) VALUES(?)");
    upsertMetadata_ = db_.prepare("INSERT OR REPLACE INTO metadata(key, value) VALUES(?, ?)");
    setMetadata("format",
                kind == FileKind::Profile ? Schema::kProfileFormat : Schema::kHostTraceFormat);
    setMetadata("format_version", std::to_string(Schema::currentVersion(kind)));
    setMetadata("tool_version", kToolVersion);
    setMetadata("created_utc", utcNowIso8601());
    setMetadata("writer_state", "open");
    // The schema commits at once so that even a writer killed in its first batch leaves a file
    // that opens as a (empty) report.
    commit();
}

WriterSession::~WriterSession() {
    if (!closed_) {
        try {
            db_.exec("COMMIT");
        } catch (...) { // leave what was committed; never throw from a destructor
        }
    }
}

std::int64_t WriterSession::intern(std::string_view text) {
    auto it = names_.find(std::string(text));
    if (it != names_.end())
        return it->second;
    insertName_.bind(1, text).run();
    const std::int64_t id = db_.lastInsertRowid();
    names_.emplace(std::string(text), id);
    return id;
}

std::optional<std::int64_t> WriterSession::internOptional(std::string_view text) {
    if (text.empty())
        return std::nullopt;
    return intern(text);
}

void WriterSession::setMetadata(std::string_view key, std::string_view value) {
    upsertMetadata_.bind(1, key).bind(2, value).run();
}

void WriterSession::commit() {
    db_.exec("COMMIT; BEGIN");
    pendingRows_ = 0;
}

void WriterSession::close() {
    if (closed_)
        return;
    if (mode_ == WriteMode::Scratch) {
        // The last, tiny transaction syncs (the whole file), so the file is on disk before its
        // owner renames it into place.
        db_.exec("COMMIT; PRAGMA synchronous=NORMAL; BEGIN");
        setMetadata("writer_state", "complete");
        db_.exec("COMMIT");
        closed_ = true;
        return;
    }
    setMetadata("writer_state", "complete");
    db_.exec("COMMIT");
    closed_ = true;
    // Leaving WAL makes the report one self-contained file. MEMORY, not DELETE: the switch
    // rewrites the header page, and a rollback journal on disk would be left hot by a writer
    // killed in between, which no read-only reader can roll back ("attempt to write a readonly
    // database"). While a reader has the file open SQLite refuses the switch (busy); the file then
    // stays in WAL mode, which is as complete and valid.
    try {
        db_.exec("PRAGMA journal_mode=MEMORY");
    } catch (const ReportError&) {
    }
}

} // namespace tilescope::report::detail
