#pragma once
// A read-only memory mapping of an input file that can hand back the pages already consumed, so
// streaming a file larger than memory keeps only a window of it resident.

#include "tilescope/report/ReportError.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tilescope::report::detail {

class MappedFile {
public:
    explicit MappedFile(const std::filesystem::path& path) : path_(path.string()) {
        fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0)
            throw ReportError(path_, "cannot open: " + std::string(std::strerror(errno)));
        struct stat st {};
        if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
            ::close(fd_);
            throw ReportError(path_, "not a regular file");
        }
        size_ = static_cast<std::size_t>(st.st_size);
        if (size_ == 0) {
            ::close(fd_);
            throw ReportError(path_, "file is empty");
        }
        void* m = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd_, 0);
        if (m == MAP_FAILED) {
            ::close(fd_);
            throw ReportError(path_, "cannot map: " + std::string(std::strerror(errno)));
        }
        data_ = static_cast<const char*>(m);
        ::madvise(m, size_, MADV_SEQUENTIAL);
    }
    ~MappedFile() {
        ::munmap(const_cast<char*>(data_), size_);
        ::close(fd_);
    }
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const std::string& path() const { return path_; }
    const char* data() const { return data_; }
    std::size_t size() const { return size_; }

    /// Drops the pages before `upTo` from this process's memory (they are not read again).
    void release(const char* upTo) {
        const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        const std::size_t end = static_cast<std::size_t>(upTo - data_) / page * page;
        if (end > released_) {
            ::madvise(const_cast<char*>(data_) + released_, end - released_, MADV_DONTNEED);
            released_ = end;
        }
    }

private:
    std::string path_;
    int fd_ = -1;
    const char* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t released_ = 0;
};

} // namespace tilescope::report::detail
