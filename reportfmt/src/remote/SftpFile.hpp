#pragma once
// A remote file read over SFTP through a block cache, private to reportfmt.

#include "SshConnection.hpp"

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

struct sftp_session_struct;
struct sftp_file_struct;

namespace tilescope::report::remote {

/// One remote file opened read-only over SFTP. Reads go through an LRU cache of 16 KiB blocks (the
/// page size reports are written with, so a random page read moves one page, not four); a miss
/// right after the previous fetch is taken as sequential reading and doubles the number of blocks
/// fetched at once (up to 1 MiB, pipelined: one round trip). Nothing else is read, so a
/// large file costs only the blocks that are asked for. Counts bytes and round trips into the
/// options' counters. Thread-safe (one lock: libssh sessions are not). A dropped or silent
/// connection fails the read with a ReportError naming the URL within the options' timeout, and
/// every later read fails at once with the same message.
class SftpFile {
public:
    static constexpr std::uint64_t kBlockSize = 16 * 1024;
    static constexpr std::size_t kCacheBlocks = 1024;  // 16 MiB
    static constexpr std::uint64_t kMaxReadAhead = 64; // blocks

    SftpFile(std::unique_ptr<SshConnection> connection, const std::string& path);
    ~SftpFile();
    SftpFile(const SftpFile&) = delete;
    SftpFile& operator=(const SftpFile&) = delete;

    std::uint64_t size() const { return size_; }
    const std::string& location() const { return connection_->location(); }
    /// Size of another file on the same server (-1 when it does not exist).
    std::int64_t siblingSize(const std::string& suffix);
    /// Copies up to `count` bytes at `offset` into `out`; returns the bytes copied (fewer only at
    /// the end of the file). Throws ReportError.
    std::size_t read(std::uint64_t offset, void* out, std::size_t count);
    /// The message of the failure that broke the connection (empty while it works).
    std::string failure() const;

private:
    const std::vector<char>& block(std::uint64_t index);
    void fetch(std::uint64_t first, std::uint64_t count);
    void waitForServer();
    [[noreturn]] void breakConnection(const std::string& why);

    std::unique_ptr<SshConnection> connection_;
    std::string path_;
    sftp_session_struct* sftp_ = nullptr;
    sftp_file_struct* file_ = nullptr;
    std::uint64_t size_ = 0;
    std::shared_ptr<RemoteReadCounters> counters_;

    mutable std::mutex mutex_;
    std::string failure_;
    std::list<std::uint64_t> recency_; // most recent first
    struct CachedBlock {
        std::vector<char> bytes;
        std::list<std::uint64_t>::iterator position;
    };
    std::unordered_map<std::uint64_t, CachedBlock> cache_;
    std::uint64_t nextSequential_ = ~std::uint64_t{0};
    std::uint64_t readAhead_ = 1;
};

} // namespace tilescope::report::remote
