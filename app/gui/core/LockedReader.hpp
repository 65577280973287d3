#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace tilescope::gui {

/// Rethrows the exception being handled as a report::ReportError that names `path`: readers
/// promise ReportErrors, but a damaged file must never surface as a bare "stoull" (or an
/// out-of-memory) without naming the file being read. Call only from a catch block.
[[noreturn]] void rethrowNamingFile(const std::string& path);

/// One reader of one file behind its own lock, opened on first use: readers (ProfileReader,
/// HostTraceReader) are not thread-safe, so every use goes through read(), which serializes them
/// and turns any failure into a ReportError naming the file, so a damaged page found late reads
/// like one found at open. The sessions hold one for their views' queries and a second one where
/// long scans must not hold up the queries that frames wait for.
template <class Reader> class LockedReader {
public:
    explicit LockedReader(std::string path) : path_(std::move(path)) {}
    LockedReader(const LockedReader&) = delete;
    LockedReader& operator=(const LockedReader&) = delete;

    const std::string& path() const { return path_; }

    /// Runs `f(const Reader&)` under the lock, opening the reader first if needed. Worker threads
    /// only (or while the owner is being opened).
    template <class F> auto read(F&& f) const -> decltype(f(std::declval<const Reader&>())) {
        std::lock_guard lock(mutex_);
        try {
            if (!reader_)
                reader_ = std::make_unique<Reader>(path_);
            return f(static_cast<const Reader&>(*reader_));
        } catch (...) {
            rethrowNamingFile(path_);
        }
    }

private:
    std::string path_;
    mutable std::mutex mutex_;
    mutable std::unique_ptr<Reader> reader_;
};

} // namespace tilescope::gui
