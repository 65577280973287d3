#pragma once

#include "tilescope/report/Schema.hpp"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::report {

namespace sql {
class Database;
}
struct SshOptions;

/// A validated, read-only connection to a report or host-trace file. Opening treats the file as
/// untrusted: it checks the SQLite header (and that the file is not cut short), opens read-only
/// with SQLite's defensive mode, untrusted schema, no triggers, views or extensions, compares every
/// schema object with the format's exact definition and checks kind and version. Each failure is a
/// ReportError naming the file and the problem. Opening reads a handful of pages whatever the file
/// size; everything else is read lazily by ProfileReader and HostTraceReader.
///
/// A location is a local path or an `ssh://[user@]host[:port]/path` URL (see RemoteStorage.hpp):
/// a remote file is checked and read in place over SFTP, page by page, with the same checks.
class ReportFile {
public:
    /// Remote locations use defaultSshOptions().
    explicit ReportFile(const std::string& location);
    ReportFile(const std::string& location, const SshOptions& ssh);
    ~ReportFile();
    ReportFile(ReportFile&&) noexcept;
    ReportFile& operator=(ReportFile&&) noexcept;

    const std::string& path() const;
    FileKind kind() const { return kind_; }
    /// The version the file was written with (<= the version this build writes).
    int formatVersion() const { return version_; }
    /// False for a file whose writer has not finished (still running, or killed).
    bool complete() const;
    const std::map<std::string, std::string>& metadata() const { return metadata_; }
    std::string metadataValue(const std::string& key, const std::string& fallback = {}) const;

    /// One row of a query result, as text (NULL becomes an empty optional).
    using Row = std::vector<std::optional<std::string>>;
    /// Runs one read-only SQL statement; calls `onHeader` once with the column names, then
    /// `onRow` per row until it returns false. Statements that write, attach or change pragmas are
    /// refused with a ReportError.
    void query(std::string_view sql,
               const std::function<void(const std::vector<std::string>&)>& onHeader,
               const std::function<bool(const Row&)>& onRow) const;
    /// Names of the format's tables present in the file.
    std::vector<std::string> tables() const;

    sql::Database& database() const { return *db_; }

private:
    std::unique_ptr<sql::Database> db_;
    FileKind kind_ = FileKind::Profile;
    int version_ = 0;
    std::map<std::string, std::string> metadata_;
};

} // namespace tilescope::report
