#include "Sqlite.hpp"

#include "tilescope/report/ReportError.hpp"

#include <utility>

namespace tilescope::report::sql {

Database::Database(const std::string& path, Mode mode) : path_(path) {
    open(path,
         mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
                                : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
         nullptr);
}

Database::Database(const std::string& openName, const std::string& displayPath, const char* vfs)
    : path_(displayPath) {
    open(openName, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, vfs);
}

void Database::open(const std::string& openName, int flags, const char* vfs) {
    const int rc = sqlite3_open_v2(openName.c_str(), &db_, flags, vfs);
    if (rc != SQLITE_OK) {
        std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        throw ReportError(path_, "cannot open: " + msg);
    }
    sqlite3_extended_result_codes(db_, 1);
}

Database::Database(Database&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)),
      ioFailure_(std::move(other.ioFailure_)) {}

Database& Database::operator=(Database&& other) noexcept {
    if (this != &other) {
        sqlite3_close(db_);
        db_ = std::exchange(other.db_, nullptr);
        path_ = std::move(other.path_);
        ioFailure_ = std::move(other.ioFailure_);
    }
    return *this;
}

Database::~Database() {
    sqlite3_close(db_);
}

std::string Database::describe(int rc, std::string msg) const {
    const int primary = rc & 0xff;
    if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB)
        return "the file is damaged (" + msg + ")";
    if (primary == SQLITE_IOERR && ioFailure_)
        if (std::string text = ioFailure_(); !text.empty())
            return text;
    return msg;
}

void Database::fail(int rc, std::string_view context) const {
    const std::string msg = describe(rc, db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc));
    throw ReportError(path_, std::string(context) + ": " + msg);
}

void Database::exec(std::string_view sqlText) {
    char* err = nullptr;
    const std::string s(sqlText);
    const int rc = sqlite3_exec(db_, s.c_str(), nullptr, nullptr, &err);
    if (rc != SQLITE_OK) {
        const std::string msg = describe(rc, err ? err : sqlite3_errstr(rc));
        sqlite3_free(err);
        throw ReportError(path_, msg);
    }
}

Statement Database::prepare(std::string_view sqlText) const {
    sqlite3_stmt* stmt = nullptr;
    const int rc = sqlite3_prepare_v3(db_, sqlText.data(), static_cast<int>(sqlText.size()),
                                      SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK)
        fail(rc, "cannot prepare query");
    return Statement(*this, stmt);
}

int Database::userVersion() const {
    auto st = prepare("PRAGMA user_version");
    st.step();
    return static_cast<int>(st.int64(0));
}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_), stmt_(std::exchange(other.stmt_, nullptr)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
    if (this != &other) {
        sqlite3_finalize(stmt_);
        db_ = other.db_;
        stmt_ = std::exchange(other.stmt_, nullptr);
    }
    return *this;
}

Statement::~Statement() {
    sqlite3_finalize(stmt_);
}

Statement& Statement::bind(int i, std::string_view text) {
    sqlite3_bind_text(stmt_, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    return *this;
}

bool Statement::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    sqlite3_reset(stmt_);
    db_->fail(rc, "query failed");
}

void Statement::run() {
    const int rc = sqlite3_step(stmt_);
    sqlite3_reset(stmt_);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        db_->fail(rc, "write failed");
}

void Statement::reset() {
    sqlite3_reset(stmt_);
}

std::string Statement::text(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    const int n = sqlite3_column_bytes(stmt_, col);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(n))
             : std::string();
}

std::string_view Statement::blob(int col) const {
    const void* p = sqlite3_column_blob(stmt_, col);
    const int n = sqlite3_column_bytes(stmt_, col);
    return p ? std::string_view(static_cast<const char*>(p), static_cast<std::size_t>(n))
             : std::string_view();
}

Transaction::~Transaction() {
    if (!done_) {
        try {
            db_.exec("ROLLBACK");
        } catch (...) { // destructor must not throw; the original error is already propagating
        }
    }
}

void Transaction::commit() {
    db_.exec("COMMIT");
    done_ = true;
}

} // namespace tilescope::report::sql
