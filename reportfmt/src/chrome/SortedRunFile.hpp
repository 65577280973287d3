#pragma once
// Sorted runs of fixed-size records in an anonymous scratch file, merged back in order: the
// external-merge half of the Chrome import, for traces whose events do not fit in memory. A run
// is written once (already sorted by the caller) and read back through a small buffer per run, so
// a merge holds kBufferRecords per run whatever the runs' sizes. The file is std::tmpfile(): it
// has no name and goes away when closed, also when the process dies.

#include "tilescope/report/ReportError.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <queue>
#include <string>
#include <type_traits>
#include <unistd.h>
#include <vector>

namespace tilescope::report::detail {

template <class T> class SortedRunFile {
    static_assert(std::is_trivially_copyable_v<T>, "records are written as bytes");

public:
    struct Run {
        std::uint64_t first = 0; // index of the run's first record in the file
        std::uint64_t count = 0;
    };
    static constexpr std::size_t kBufferRecords = 4096;

    SortedRunFile() = default;
    SortedRunFile(const SortedRunFile&) = delete;
    SortedRunFile& operator=(const SortedRunFile&) = delete;
    ~SortedRunFile() {
        if (file_)
            std::fclose(file_);
    }

    /// Appends `sorted` as one run.
    Run append(const std::vector<T>& sorted) {
        if (!file_) {
            file_ = std::tmpfile();
            if (!file_)
                fail("cannot create a scratch file for sorting");
        }
        Run run{records_, sorted.size()};
        if (!sorted.empty() &&
            std::fwrite(sorted.data(), sizeof(T), sorted.size(), file_) != sorted.size())
            fail("cannot write the scratch file for sorting");
        records_ += sorted.size();
        return run;
    }

    /// Calls `f(const T&)` for every record of `runs` and of `memory` (sorted too) in the order
    /// `less` defines.
    template <class Less, class F>
    void merge(const std::vector<Run>& runs, const std::vector<T>& memory, Less less, F&& f) {
        if (file_ && std::fflush(file_) != 0)
            fail("cannot write the scratch file for sorting");
        struct Source {
            std::vector<T> buffer;
            std::size_t pos = 0;
            std::uint64_t next = 0, end = 0; // file records not yet buffered
        };
        std::vector<Source> sources(runs.size() + 1);
        for (std::size_t i = 0; i < runs.size(); ++i) {
            sources[i].next = runs[i].first;
            sources[i].end = runs[i].first + runs[i].count;
            refill(sources[i]);
        }
        sources.back().buffer = memory; // the last source: the records still in memory
        auto current = [&](std::size_t i) -> const T& { return sources[i].buffer[sources[i].pos]; };
        auto later = [&](std::size_t a, std::size_t b) { return less(current(b), current(a)); };
        std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(later)> heap(later);
        for (std::size_t i = 0; i < sources.size(); ++i)
            if (!sources[i].buffer.empty())
                heap.push(i);
        while (!heap.empty()) {
            const std::size_t i = heap.top();
            heap.pop();
            f(current(i));
            Source& s = sources[i];
            if (++s.pos == s.buffer.size())
                refill(s);
            if (s.pos < s.buffer.size())
                heap.push(i);
        }
    }

private:
    [[noreturn]] static void fail(const char* what) {
        throw ReportError("", std::string(what) + ": " + std::strerror(errno));
    }

    void refill(auto& s) {
        s.buffer.clear();
        s.pos = 0;
        const std::uint64_t n = std::min<std::uint64_t>(kBufferRecords, s.end - s.next);
        if (n == 0)
            return;
        s.buffer.resize(static_cast<std::size_t>(n));
        const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(T);
        const auto at = static_cast<off_t>(s.next * sizeof(T));
        if (::pread(::fileno(file_), s.buffer.data(), bytes, at) != static_cast<ssize_t>(bytes))
            fail("cannot read the scratch file for sorting");
        s.next += n;
    }

    std::FILE* file_ = nullptr;
    std::uint64_t records_ = 0;
};

} // namespace tilescope::report::detail
