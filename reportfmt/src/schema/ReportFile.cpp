#include "tilescope/report/ReportFile.hpp"

#include "SchemaMigration.hpp"
#include "remote/SftpFile.hpp"
#include "remote/SftpVfs.hpp"
#include "sqlite/Sqlite.hpp"
#include "tilescope/report/RemoteStorage.hpp"
#include "tilescope/report/ReportError.hpp"

#include <array>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <set>
#include <system_error>

namespace tilescope::report {
namespace {

std::uint32_t bigEndian32(const unsigned char* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
           std::uint32_t{p[3]};
}

// What the header check needs to know about a file, wherever it is stored.
struct FileStart {
    std::uint64_t size = 0;
    std::array<unsigned char, 100> header{};
    std::size_t got = 0;             // bytes of the header read
    std::function<bool()> walBeside; // asked only when the file looks short
};

// Checks what can be checked before SQLite sees the file, so that the common mistakes (wrong file,
// empty file, a copy cut short) get a precise message instead of SQLite's generic one.
void checkFileStart(const std::string& path, const FileStart& f) {
    const auto& h = f.header;
    if (f.size == 0)
        throw ReportError(path, "file is empty");
    if (f.got < 16 || std::memcmp(h.data(), "SQLite format 3\0", 16) != 0)
        throw ReportError(path, "not a TileScope report (not an SQLite database file)");
    if (f.got < 100)
        throw ReportError(path, "file is truncated (shorter than the SQLite header)");
    std::uint32_t pageSize = (std::uint32_t{h[16]} << 8) | h[17];
    if (pageSize == 1)
        pageSize = 65536;
    if (pageSize < 512 || (pageSize & (pageSize - 1)) != 0)
        throw ReportError(path, "file is damaged (invalid page size in the SQLite header)");
    // The in-header page count is valid when the change counter matches version-valid-for. Not
    // while a WAL is beside the file: a checkpoint writes page 1 first, so a writer killed during
    // one leaves a shorter file whose missing pages are still in the WAL.
    const std::uint32_t pages = bigEndian32(&h[28]);
    if (pages != 0 && bigEndian32(&h[24]) == bigEndian32(&h[92])) {
        const std::uint64_t expected = std::uint64_t{pages} * pageSize;
        if (f.size < expected && !f.walBeside())
            throw ReportError(path,
                              fmt::format("file is truncated ({} of {} bytes)", f.size, expected));
    }
}

void checkHeader(const std::string& path) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status))
        throw ReportError(path, "no such file");
    if (std::filesystem::is_directory(status))
        throw ReportError(path, "is a directory, not a report file");
    FileStart f;
    f.size = std::filesystem::file_size(path, ec);
    if (ec)
        throw ReportError(path, "cannot read file size: " + ec.message());
    if (f.size == 0)
        throw ReportError(path, "file is empty");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw ReportError(path, "cannot open for reading");
    in.read(reinterpret_cast<char*>(f.header.data()), f.header.size());
    f.got = static_cast<std::size_t>(in.gcount());
    f.walBeside = [&] {
        std::error_code walError;
        return std::filesystem::file_size(path + "-wal", walError) > 0 && !walError;
    };
    checkFileStart(path, f);
}

// A report on another machine: the same checks on the same bytes, read over SFTP, then SQLite
// reads the file in place through the SFTP VFS.
std::unique_ptr<sql::Database> openRemote(const std::string& location, const SshOptions& options) {
    const SshUrl url = SshUrl::parse(location);
    auto connection =
        std::make_unique<remote::SshConnection>(location, url.host, url.user, url.port, options);
    auto file = std::make_shared<remote::SftpFile>(std::move(connection), url.path);
    FileStart f;
    f.size = file->size();
    if (f.size > 0)
        f.got = file->read(0, f.header.data(), f.header.size());
    f.walBeside = [&] { return file->siblingSize("-wal") > 0; };
    checkFileStart(location, f);
    if (f.header[18] == 2 || f.header[19] == 2)
        throw ReportError(location, "the report is still in WAL mode (its writer is running or "
                                    "was killed before closing it); remote opening reads "
                                    "finished reports only: open it on that machine");
    const remote::SftpVfsEntry entry(file);
    auto db =
        std::make_unique<sql::Database>(entry.name(), location, remote::SftpVfsEntry::vfsName());
    db->setIoFailureText([weak = std::weak_ptr<remote::SftpFile>(file)] {
        const auto f = weak.lock();
        return f ? f->failure() : std::string();
    });
    return db;
}

void configureDefensive(sql::Database& db) {
    sqlite3* h = db.handle();
    int ignored = 0;
    sqlite3_db_config(h, SQLITE_DBCONFIG_DEFENSIVE, 1, &ignored);
    sqlite3_db_config(h, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &ignored);
    sqlite3_db_config(h, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, &ignored);
    sqlite3_db_config(h, SQLITE_DBCONFIG_ENABLE_VIEW, 0, &ignored);
    sqlite3_db_config(h, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, &ignored);
    sqlite3_db_config(h, SQLITE_DBCONFIG_ENABLE_FKEY, 0, &ignored);
    sqlite3_limit(h, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_limit(h, SQLITE_LIMIT_LENGTH, 256 * 1024 * 1024);
    sqlite3_limit(h, SQLITE_LIMIT_SQL_LENGTH, 1024 * 1024);
    sqlite3_limit(h, SQLITE_LIMIT_EXPR_DEPTH, 200);
    sqlite3_limit(h, SQLITE_LIMIT_COMPOUND_SELECT, 50);
}

struct SchemaRow {
    std::string type, name, table;
    std::optional<std::string> sql;
};

std::vector<SchemaRow> readSchema(sql::Database& db) {
    std::vector<SchemaRow> rows;
    auto st = db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema");
    while (st.step())
        rows.push_back({st.text(0), st.text(1), st.text(2),
                        st.isNull(3) ? std::nullopt : std::optional(st.text(3))});
    return rows;
}

const SchemaObject* findObject(const std::vector<SchemaObject>& objs, const std::string& name) {
    for (const auto& o : objs)
        if (o.name == name)
            return &o;
    return nullptr;
}

// Every object in the file must be one the format defines, with exactly its definition. Triggers
// and views are refused outright: a report never has them, and in an untrusted file they are the
// way to run code (functions) when a table is read.
void checkSchema(const std::string& path, const std::vector<SchemaRow>& rows,
                 const std::vector<SchemaObject>& expected) {
    std::set<std::string> seen;
    for (const auto& r : rows) {
        if (r.type == "trigger" || r.type == "view")
            throw ReportError(path, fmt::format("not a valid report: its schema has a {} ('{}'), "
                                                "which reports never contain",
                                                r.type, r.name));
        if (r.name.starts_with("sqlite_autoindex_") && !r.sql) {
            if (!findObject(expected, r.table))
                throw ReportError(path,
                                  fmt::format("not a valid report: unexpected index '{}'", r.name));
            continue;
        }
        const SchemaObject* o = findObject(expected, r.name);
        if (!o)
            throw ReportError(
                path, fmt::format("not a valid report: unexpected {} '{}'", r.type, r.name));
        if (o->type != r.type || !r.sql || *r.sql != o->sql)
            throw ReportError(path, fmt::format("not a valid report: {} '{}' differs from the "
                                                "format's definition",
                                                r.type, r.name));
        seen.insert(r.name);
    }
    for (const auto& o : expected)
        if (!o.createdAtClose && !seen.count(std::string(o.name)))
            throw ReportError(
                path, fmt::format("not a valid report: {} '{}' is missing", o.type, o.name));
}

int authorizeUserQuery(void*, int action, const char* a, const char*, const char*, const char*) {
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_FUNCTION:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    case SQLITE_PRAGMA: {
        // Read-only introspection pragmas are useful to people exploring a report.
        static const std::set<std::string> allowed = {"table_info", "table_xinfo",  "index_list",
                                                      "index_info", "user_version", "page_count",
                                                      "page_size"};
        return a && allowed.count(a) ? SQLITE_OK : SQLITE_DENY;
    }
    default:
        return SQLITE_DENY;
    }
}

} // namespace

ReportFile::ReportFile(const std::string& location)
    : ReportFile(location, SshUrl::matches(location) ? defaultSshOptions() : SshOptions{}) {}

ReportFile::ReportFile(const std::string& location, const SshOptions& ssh) {
    const std::string& path = location;
    if (SshUrl::matches(location)) {
        db_ = openRemote(location, ssh);
    } else {
        checkHeader(path);
        db_ = std::make_unique<sql::Database>(path, sql::Database::Mode::ReadOnly);
    }
    configureDefensive(*db_);
    const auto rows = readSchema(*db_);

    bool hasMetadata = false;
    for (const auto& r : rows)
        if (r.type == "trigger" || r.type == "view")
            throw ReportError(path, fmt::format("not a valid report: its schema has a {} ('{}'), "
                                                "which reports never contain",
                                                r.type, r.name));
        else if (r.name == "metadata")
            hasMetadata = r.sql && *r.sql == Schema::profile()[0].sql;
    if (!hasMetadata)
        throw ReportError(path, rows.empty() ? "not a TileScope report (empty SQLite database)"
                                             : "not a TileScope report (an SQLite database "
                                               "without TileScope metadata)");
    {
        auto st = db_->prepare("SELECT key, value FROM metadata");
        while (st.step())
            metadata_[st.text(0)] = st.text(1);
    }
    const std::string format = metadataValue("format");
    if (format == Schema::kProfileFormat)
        kind_ = FileKind::Profile;
    else if (format == Schema::kHostTraceFormat)
        kind_ = FileKind::HostTrace;
    else
        throw ReportError(path, format.empty()
                                    ? "not a TileScope report (no format in metadata)"
                                    : "not a TileScope report (unknown format '" + format + "')");
    version_ = db_->userVersion();
    const int current = Schema::currentVersion(kind_);
    if (metadataValue("format_version") != std::to_string(version_))
        throw ReportError(path, fmt::format("file is damaged (format version {} in metadata, {} "
                                            "in the SQLite header)",
                                            metadataValue("format_version"), version_));
    if (version_ > current)
        throw ReportError(path, fmt::format("written by a newer TileScope (format version {}, "
                                            "written by tools {}); this build reads versions up "
                                            "to {}: please upgrade",
                                            version_, metadataValue("tool_version", "?"), current));
    if (version_ < 1)
        throw ReportError(path, fmt::format("invalid format version {}", version_));
    checkSchema(path, rows, migration::schemaOf(kind_, version_));
    migration::upgradeInTemp(*db_, kind_, version_);
}

ReportFile::~ReportFile() = default;
ReportFile::ReportFile(ReportFile&&) noexcept = default;
ReportFile& ReportFile::operator=(ReportFile&&) noexcept = default;

const std::string& ReportFile::path() const {
    return db_->path();
}

bool ReportFile::complete() const {
    return metadataValue("writer_state") == "complete";
}

std::string ReportFile::metadataValue(const std::string& key, const std::string& fallback) const {
    const auto it = metadata_.find(key);
    return it == metadata_.end() ? fallback : it->second;
}

void ReportFile::query(std::string_view sqlText,
                       const std::function<void(const std::vector<std::string>&)>& onHeader,
                       const std::function<bool(const Row&)>& onRow) const {
    sqlite3* h = db_->handle();
    sqlite3_stmt* raw = nullptr;
    const char* tail = nullptr;
    sqlite3_set_authorizer(h, authorizeUserQuery, nullptr);
    const int rc =
        sqlite3_prepare_v2(h, sqlText.data(), static_cast<int>(sqlText.size()), &raw, &tail);
    sqlite3_set_authorizer(h, nullptr, nullptr);
    if (rc == SQLITE_AUTH)
        throw ReportError(path(), "query refused: reports are read-only (only SELECT and the "
                                  "read-only pragmas table_info, index_list, index_info, "
                                  "user_version, page_count and page_size are allowed)");
    if (rc != SQLITE_OK)
        throw ReportError(path(), std::string("query refused: ") + sqlite3_errmsg(h));
    sql::Statement st(*db_, raw);
    if (!raw)
        throw ReportError(path(), "query refused: empty query");
    for (const char* p = tail; p && p < sqlText.data() + sqlText.size(); ++p)
        if (!std::isspace(static_cast<unsigned char>(*p)) && *p != ';')
            throw ReportError(path(), "query refused: one statement at a time");
    if (!sqlite3_stmt_readonly(raw))
        throw ReportError(path(), "query refused: reports are opened read-only");
    std::vector<std::string> header;
    for (int i = 0; i < st.columnCount(); ++i)
        header.push_back(st.columnName(i));
    onHeader(header);
    Row row(header.size());
    while (st.step()) {
        for (int i = 0; i < st.columnCount(); ++i) {
            switch (st.columnType(i)) {
            case SQLITE_NULL:
                row[i].reset();
                break;
            case SQLITE_BLOB: {
                const auto b = st.blob(i);
                std::string hex = "x'";
                for (unsigned char c : b)
                    hex += fmt::format("{:02x}", c);
                row[i] = hex + "'";
                break;
            }
            default:
                row[i] = st.text(i);
            }
        }
        if (!onRow(row))
            break;
    }
}

std::vector<std::string> ReportFile::tables() const {
    std::vector<std::string> out;
    auto st = db_->prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY rowid");
    while (st.step())
        out.push_back(st.text(0));
    return out;
}

} // namespace tilescope::report
