#pragma once
// Thin RAII layer over the SQLite C API, private to reportfmt. Every error becomes a ReportError
// naming the file, so callers never see raw result codes.

#include <cstdint>
#include <functional>
#include <span>
#include <sqlite3.h>
#include <string>
#include <string_view>

namespace tilescope::report::sql {

class Statement;

/// An open SQLite connection. Move-only; closes on destruction.
class Database {
public:
    enum class Mode { ReadOnly, Create };

    Database() = default;
    Database(const std::string& path, Mode mode);
    /// Opens read-only through the VFS `vfs`, which knows the file as `openName`; errors name
    /// `displayPath` (a URL for remote files).
    Database(const std::string& openName, const std::string& displayPath, const char* vfs);
    Database(Database&& other) noexcept;
    Database& operator=(Database&& other) noexcept;
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;
    ~Database();

    sqlite3* handle() const { return db_; }
    const std::string& path() const { return path_; }

    void exec(std::string_view sql);
    Statement prepare(std::string_view sql) const;
    std::int64_t lastInsertRowid() const { return sqlite3_last_insert_rowid(db_); }
    int userVersion() const;
    /// For I/O errors, a better message than SQLite's "disk I/O error" (a VFS knows what broke:
    /// a lost connection, a timeout). Empty text: keep SQLite's.
    void setIoFailureText(std::function<std::string()> text) { ioFailure_ = std::move(text); }
    /// Builds the error for `rc`/the connection's last message and throws it.
    [[noreturn]] void fail(int rc, std::string_view context) const;

private:
    void open(const std::string& openName, int flags, const char* vfs);
    std::string describe(int rc, std::string msg) const;

    sqlite3* db_ = nullptr;
    std::string path_;
    std::function<std::string()> ioFailure_;
};

/// A prepared statement. Bind parameters are 1-based as in SQLite; columns 0-based.
class Statement {
public:
    Statement() = default;
    Statement(const Database& db, sqlite3_stmt* stmt) : db_(&db), stmt_(stmt) {}
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&& other) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    ~Statement();

    // Binding is inline: it is on the writers' hot path, a few calls per row.
    Statement& bind(int i, std::int64_t v) {
        sqlite3_bind_int64(stmt_, i, v);
        return *this;
    }
    Statement& bind(int i, int v) { return bind(i, static_cast<std::int64_t>(v)); }
    Statement& bind(int i, std::uint64_t v) { return bind(i, static_cast<std::int64_t>(v)); }
    Statement& bind(int i, double v) {
        sqlite3_bind_double(stmt_, i, v);
        return *this;
    }
    Statement& bind(int i, std::string_view text);
    /// The bytes must stay valid until the statement has run (SQLITE_STATIC: no copy).
    Statement& bindBlob(int i, std::string_view bytes) {
        sqlite3_bind_blob(stmt_, i, bytes.data(), static_cast<int>(bytes.size()), SQLITE_STATIC);
        return *this;
    }
    Statement& bindNull(int i) {
        sqlite3_bind_null(stmt_, i);
        return *this;
    }

    /// Advances; true while a row is available.
    bool step();
    /// Runs a statement that returns no rows, then resets it for reuse.
    void run();
    void reset();

    bool isNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
    std::int64_t int64(int col) const { return sqlite3_column_int64(stmt_, col); }
    double real(int col) const { return sqlite3_column_double(stmt_, col); }
    std::string text(int col) const;
    std::string_view blob(int col) const;
    int columnCount() const { return sqlite3_column_count(stmt_); }
    std::string columnName(int col) const { return sqlite3_column_name(stmt_, col); }
    int columnType(int col) const { return sqlite3_column_type(stmt_, col); }
    sqlite3_stmt* handle() const { return stmt_; }

private:
    const Database* db_ = nullptr;
    sqlite3_stmt* stmt_ = nullptr;
};

/// RAII transaction: commits on commit(), rolls back if destroyed before.
class Transaction {
public:
    explicit Transaction(Database& db) : db_(db) { db_.exec("BEGIN"); }
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    ~Transaction();
    void commit();

private:
    Database& db_;
    bool done_ = false;
};

} // namespace tilescope::report::sql
