#include "SftpVfs.hpp"

#include "SftpFile.hpp"
#include "tilescope/report/ReportError.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <sqlite3.h>
#include <string_view>

namespace tilescope::report::remote {
namespace {

constexpr std::string_view kNamePrefix = "/tilescope-sftp/";

std::mutex registryMutex;
std::map<std::string, std::weak_ptr<SftpFile>>& registry() {
    static std::map<std::string, std::weak_ptr<SftpFile>> files;
    return files;
}

bool isOurs(const char* name) {
    return name && std::string_view(name).starts_with(kNamePrefix);
}

struct RemoteSqliteFile {
    sqlite3_file base;
    std::shared_ptr<SftpFile>* file;
};

SftpFile& fileOf(sqlite3_file* f) {
    return **reinterpret_cast<RemoteSqliteFile*>(f)->file;
}

int remoteClose(sqlite3_file* f) {
    auto* rf = reinterpret_cast<RemoteSqliteFile*>(f);
    delete rf->file;
    rf->file = nullptr;
    return SQLITE_OK;
}

int remoteRead(sqlite3_file* f, void* out, int amount, sqlite3_int64 offset) {
    try {
        const std::size_t got = fileOf(f).read(static_cast<std::uint64_t>(offset), out,
                                               static_cast<std::size_t>(amount));
        if (got < static_cast<std::size_t>(amount)) {
            std::memset(static_cast<char*>(out) + got, 0, static_cast<std::size_t>(amount) - got);
            return SQLITE_IOERR_SHORT_READ;
        }
        return SQLITE_OK;
    } catch (...) { // the file keeps the message; SQLite only takes a code
        return SQLITE_IOERR_READ;
    }
}

int remoteWrite(sqlite3_file*, const void*, int, sqlite3_int64) {
    return SQLITE_READONLY;
}
int remoteTruncate(sqlite3_file*, sqlite3_int64) {
    return SQLITE_READONLY;
}
int remoteSync(sqlite3_file*, int) {
    return SQLITE_OK;
}
int remoteFileSize(sqlite3_file* f, sqlite3_int64* size) {
    *size = static_cast<sqlite3_int64>(fileOf(f).size());
    return SQLITE_OK;
}
int remoteLock(sqlite3_file*, int) {
    return SQLITE_OK;
}
int remoteCheckReservedLock(sqlite3_file*, int* out) {
    *out = 0;
    return SQLITE_OK;
}
int remoteFileControl(sqlite3_file*, int, void*) {
    return SQLITE_NOTFOUND;
}
int remoteSectorSize(sqlite3_file*) {
    return 4096;
}
int remoteDeviceCharacteristics(sqlite3_file*) {
    return SQLITE_IOCAP_IMMUTABLE;
}

const sqlite3_io_methods remoteMethods = {
    1, // iVersion: no shared memory, no mmap
    remoteClose,
    remoteRead,
    remoteWrite,
    remoteTruncate,
    remoteSync,
    remoteFileSize,
    remoteLock,
    remoteLock,
    remoteCheckReservedLock,
    remoteFileControl,
    remoteSectorSize,
    remoteDeviceCharacteristics,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
};

// The VFS every other file goes to (unix), found when ours is registered.
sqlite3_vfs* baseVfs = nullptr;
sqlite3_vfs* base() {
    return baseVfs;
}

int vfsOpen(sqlite3_vfs*, const char* name, sqlite3_file* f, int flags, int* outFlags) {
    if (!isOurs(name))
        return base()->xOpen(base(), name, f, flags, outFlags);
    auto* rf = reinterpret_cast<RemoteSqliteFile*>(f);
    rf->base.pMethods = nullptr;
    rf->file = nullptr;
    if (!(flags & SQLITE_OPEN_MAIN_DB) || (flags & SQLITE_OPEN_READWRITE))
        return SQLITE_CANTOPEN;
    std::shared_ptr<SftpFile> file;
    {
        std::lock_guard lock(registryMutex);
        const auto it = registry().find(name);
        if (it != registry().end())
            file = it->second.lock();
    }
    if (!file)
        return SQLITE_CANTOPEN;
    rf->file = new std::shared_ptr<SftpFile>(std::move(file));
    rf->base.pMethods = &remoteMethods;
    if (outFlags)
        *outFlags = SQLITE_OPEN_READONLY;
    return SQLITE_OK;
}

int vfsDelete(sqlite3_vfs*, const char* name, int syncDir) {
    return isOurs(name) ? SQLITE_IOERR_DELETE : base()->xDelete(base(), name, syncDir);
}

int vfsAccess(sqlite3_vfs*, const char* name, int flags, int* out) {
    if (!isOurs(name))
        return base()->xAccess(base(), name, flags, out);
    *out = 0; // no journal or WAL beside a remote report
    return SQLITE_OK;
}

int vfsFullPathname(sqlite3_vfs*, const char* name, int size, char* out) {
    if (!isOurs(name))
        return base()->xFullPathname(base(), name, size, out);
    const std::size_t n = std::strlen(name);
    if (n + 1 > static_cast<std::size_t>(size))
        return SQLITE_CANTOPEN;
    std::memcpy(out, name, n + 1);
    return SQLITE_OK;
}

void* vfsDlOpen(sqlite3_vfs*, const char*) {
    return nullptr; // extensions are never loaded from reports
}
void vfsDlError(sqlite3_vfs*, int size, char* out) {
    if (size > 0)
        std::snprintf(out, static_cast<std::size_t>(size), "extensions are disabled");
}
void (*vfsDlSym(sqlite3_vfs*, void*, const char*))(void) {
    return nullptr;
}
void vfsDlClose(sqlite3_vfs*, void*) {}
int vfsRandomness(sqlite3_vfs*, int n, char* out) {
    return base()->xRandomness(base(), n, out);
}
int vfsSleep(sqlite3_vfs*, int micros) {
    return base()->xSleep(base(), micros);
}
int vfsCurrentTime(sqlite3_vfs*, double* out) {
    return base()->xCurrentTime(base(), out);
}
int vfsGetLastError(sqlite3_vfs*, int n, char* out) {
    return base()->xGetLastError ? base()->xGetLastError(base(), n, out) : 0;
}
int vfsCurrentTimeInt64(sqlite3_vfs*, sqlite3_int64* out) {
    return base()->xCurrentTimeInt64(base(), out);
}

sqlite3_vfs* registerVfs() {
    static sqlite3_vfs vfs = [] {
        sqlite3_vfs* defaultVfs = sqlite3_vfs_find(nullptr);
        baseVfs = defaultVfs;
        sqlite3_vfs v{};
        v.iVersion = 2;
        v.szOsFile = std::max(defaultVfs->szOsFile, static_cast<int>(sizeof(RemoteSqliteFile)));
        v.mxPathname = std::max(defaultVfs->mxPathname, 1024);
        v.zName = "tilescope-sftp";
        v.pAppData = defaultVfs;
        v.xOpen = vfsOpen;
        v.xDelete = vfsDelete;
        v.xAccess = vfsAccess;
        v.xFullPathname = vfsFullPathname;
        v.xDlOpen = vfsDlOpen;
        v.xDlError = vfsDlError;
        v.xDlSym = vfsDlSym;
        v.xDlClose = vfsDlClose;
        v.xRandomness = vfsRandomness;
        v.xSleep = vfsSleep;
        v.xCurrentTime = vfsCurrentTime;
        v.xGetLastError = vfsGetLastError;
        v.xCurrentTimeInt64 = vfsCurrentTimeInt64;
        return v;
    }();
    static const int rc = sqlite3_vfs_register(&vfs, 0);
    if (rc != SQLITE_OK)
        throw ReportError("", "cannot register the SFTP file system with SQLite");
    return &vfs;
}

} // namespace

SftpVfsEntry::SftpVfsEntry(std::shared_ptr<SftpFile> file) {
    registerVfs();
    static std::uint64_t counter = 0;
    std::lock_guard lock(registryMutex);
    name_ = std::string(kNamePrefix) + std::to_string(++counter);
    registry()[name_] = file;
}

SftpVfsEntry::~SftpVfsEntry() {
    std::lock_guard lock(registryMutex);
    registry().erase(name_);
}

const char* SftpVfsEntry::vfsName() {
    return registerVfs()->zName;
}

} // namespace tilescope::report::remote
