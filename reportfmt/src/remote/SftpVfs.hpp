#pragma once
// The read-only SQLite VFS through which reports on remote machines are read in place.

#include <memory>
#include <string>

namespace tilescope::report::remote {

class SftpFile;

/// Makes an open SftpFile available to sqlite3_open_v2 under `name()` with the VFS `vfsName()`
/// (registered on first use) until this object is destroyed; SQLite's own handle keeps the file
/// alive after that. The VFS serves only the main database file, read-only and immutable (no
/// locks, no journal or WAL lookups); temporary files (the reader's temp schema) go to the
/// default VFS.
class SftpVfsEntry {
public:
    explicit SftpVfsEntry(std::shared_ptr<SftpFile> file);
    ~SftpVfsEntry();
    SftpVfsEntry(const SftpVfsEntry&) = delete;
    SftpVfsEntry& operator=(const SftpVfsEntry&) = delete;

    const std::string& name() const { return name_; }
    static const char* vfsName();

private:
    std::string name_;
};

} // namespace tilescope::report::remote
