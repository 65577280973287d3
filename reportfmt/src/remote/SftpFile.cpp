#include "SftpFile.hpp"

#include "tilescope/report/ReportError.hpp"

#include <algorithm>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <libssh/sftp.h>

namespace tilescope::report::remote {
namespace {

std::string sftpProblem(sftp_session sftp) {
    switch (sftp_get_error(sftp)) {
    case SSH_FX_NO_SUCH_FILE:
    case SSH_FX_NO_SUCH_PATH:
        return "no such file";
    case SSH_FX_PERMISSION_DENIED:
        return "permission denied";
    default:
        return fmt::format("SFTP error: {}", ssh_get_error(sftp->session));
    }
}

} // namespace

SftpFile::SftpFile(std::unique_ptr<SshConnection> connection, const std::string& path)
    : connection_(std::move(connection)), path_(path),
      counters_(connection_->options().counters ? connection_->options().counters
                                                : std::make_shared<RemoteReadCounters>()) {
    ssh_session session = connection_->session();
    sftp_ = sftp_new(session);
    if (!sftp_ || sftp_init(sftp_) != SSH_OK) {
        const std::string why = ssh_get_error(session);
        if (sftp_)
            sftp_free(sftp_);
        sftp_ = nullptr;
        throw ReportError(location(), fmt::format("{}: the server does not offer SFTP ({})",
                                                  connection_->destination(), why));
    }
    const auto fail = [&](const std::string& problem) {
        sftp_free(sftp_);
        sftp_ = nullptr;
        throw ReportError(location(), problem);
    };
    sftp_attributes attributes = sftp_stat(sftp_, path_.c_str());
    if (!attributes)
        fail(sftpProblem(sftp_));
    const auto type = attributes->type;
    size_ = attributes->size;
    sftp_attributes_free(attributes);
    if (type == SSH_FILEXFER_TYPE_DIRECTORY)
        fail("is a directory, not a report file");
    file_ = sftp_open(sftp_, path_.c_str(), O_RDONLY, 0);
    if (!file_)
        fail("cannot open for reading: " + sftpProblem(sftp_));
    counters_->fileSize += size_;
}

SftpFile::~SftpFile() {
    // Closing a handle waits for the server's answer: skip it on a broken connection (the
    // server forgets handles when the channel goes).
    if (file_ && failure_.empty())
        sftp_close(file_);
    if (sftp_)
        sftp_free(sftp_);
}

std::string SftpFile::failure() const {
    std::lock_guard lock(mutex_);
    return failure_;
}

void SftpFile::breakConnection(const std::string& why) {
    failure_ = fmt::format("connection to {} lost while reading the file ({})",
                           connection_->destination(), why);
    throw ReportError(location(), failure_);
}

// libssh's SFTP calls block without a limit; waiting here first bounds a silent server.
void SftpFile::waitForServer() {
    const int timeoutMs = std::max(1, connection_->options().timeoutSeconds) * 1000;
    const int rc = ssh_channel_poll_timeout(sftp_->channel, timeoutMs, 0);
    if (rc == SSH_ERROR)
        breakConnection(ssh_get_error(connection_->session()));
    if (rc == SSH_EOF)
        breakConnection("the server closed the connection");
    if (rc == 0)
        breakConnection(
            fmt::format("no answer within {} s", connection_->options().timeoutSeconds));
}

std::int64_t SftpFile::siblingSize(const std::string& suffix) {
    std::lock_guard lock(mutex_);
    if (!failure_.empty())
        throw ReportError(location(), failure_);
    sftp_attributes attributes = sftp_stat(sftp_, (path_ + suffix).c_str());
    counters_->roundTrips += 1;
    if (!attributes)
        return -1;
    const auto size = static_cast<std::int64_t>(attributes->size);
    sftp_attributes_free(attributes);
    return size;
}

void SftpFile::fetch(std::uint64_t first, std::uint64_t count) {
    if (sftp_seek64(file_, first * kBlockSize) != 0)
        breakConnection(ssh_get_error(connection_->session()));
    std::vector<int> requests;
    std::vector<std::uint64_t> lengths;
    for (std::uint64_t b = first; b < first + count; ++b) {
        const std::uint64_t length = std::min(kBlockSize, size_ - b * kBlockSize);
        const int id = sftp_async_read_begin(file_, static_cast<uint32_t>(length));
        if (id < 0)
            breakConnection(ssh_get_error(connection_->session()));
        requests.push_back(id);
        lengths.push_back(length);
    }
    counters_->roundTrips += 1;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const std::uint64_t index = first + i;
        std::vector<char> bytes(lengths[i]);
        std::size_t got = 0;
        waitForServer();
        const int n = sftp_async_read(file_, bytes.data(), static_cast<uint32_t>(bytes.size()),
                                      static_cast<uint32_t>(requests[i]));
        if (n < 0)
            breakConnection(ssh_get_error(connection_->session()));
        got = static_cast<std::size_t>(n);
        counters_->bytesRead += got;
        // A server may answer with less than asked (its own limit per read): ask for the rest.
        while (got < bytes.size() && n > 0) {
            if (sftp_seek64(file_, index * kBlockSize + got) != 0)
                breakConnection(ssh_get_error(connection_->session()));
            const int id = sftp_async_read_begin(file_, static_cast<uint32_t>(bytes.size() - got));
            if (id < 0)
                breakConnection(ssh_get_error(connection_->session()));
            counters_->roundTrips += 1;
            waitForServer();
            const int more = sftp_async_read(file_, bytes.data() + got,
                                             static_cast<uint32_t>(bytes.size() - got),
                                             static_cast<uint32_t>(id));
            if (more < 0)
                breakConnection(ssh_get_error(connection_->session()));
            if (more == 0)
                break; // the file shrank: SQLite sees a short read
            got += static_cast<std::size_t>(more);
            counters_->bytesRead += static_cast<std::uint64_t>(more);
        }
        bytes.resize(got);
        if (cache_.size() >= kCacheBlocks) {
            cache_.erase(recency_.back());
            recency_.pop_back();
        }
        recency_.push_front(index);
        cache_[index] = CachedBlock{std::move(bytes), recency_.begin()};
    }
}

const std::vector<char>& SftpFile::block(std::uint64_t index) {
    if (auto it = cache_.find(index); it != cache_.end()) {
        recency_.splice(recency_.begin(), recency_, it->second.position);
        return it->second.bytes;
    }
    readAhead_ = index == nextSequential_ ? std::min(readAhead_ * 2, kMaxReadAhead) : 1;
    const std::uint64_t blocks = (size_ + kBlockSize - 1) / kBlockSize;
    std::uint64_t count = 1;
    while (count < readAhead_ && index + count < blocks && !cache_.count(index + count))
        ++count;
    fetch(index, count);
    nextSequential_ = index + count;
    return cache_.at(index).bytes;
}

std::size_t SftpFile::read(std::uint64_t offset, void* out, std::size_t count) {
    std::lock_guard lock(mutex_);
    if (!failure_.empty())
        throw ReportError(location(), failure_);
    auto* dst = static_cast<char*>(out);
    std::size_t done = 0;
    while (done < count && offset + done < size_) {
        const std::uint64_t at = offset + done;
        const auto& bytes = block(at / kBlockSize);
        const std::uint64_t inBlock = at % kBlockSize;
        if (inBlock >= bytes.size())
            break;
        const std::size_t n =
            std::min<std::size_t>(count - done, static_cast<std::size_t>(bytes.size() - inBlock));
        std::memcpy(dst + done, bytes.data() + inBlock, n);
        done += n;
    }
    return done;
}

} // namespace tilescope::report::remote
