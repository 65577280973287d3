#pragma once
// Streaming JSON output shared by the Chrome trace exports: buffered writes that fail loudly,
// and the number formats the trace-event format needs.

#include "sqlite/Sqlite.hpp"
#include "tilescope/report/ReportError.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <string>

namespace tilescope::report::detail {

/// Nanoseconds as microseconds with three decimals: exact, whatever the magnitude.
inline std::string micros(std::int64_t ns) {
    const bool negative = ns < 0;
    const std::uint64_t a = negative ? 0 - static_cast<std::uint64_t>(ns) : ns;
    return fmt::format("{}{}.{:03}", negative ? "-" : "", a / 1000, a % 1000);
}

inline std::string quoted(const std::string& s) {
    return nlohmann::json(s).dump();
}

/// Buffered output of a trace-event array that fails loudly.
class JsonOut {
public:
    explicit JsonOut(const std::filesystem::path& path) : path_(path.string()) {
        f_ = std::fopen(path_.c_str(), "wb");
        if (!f_)
            throw ReportError(path_, "cannot write: " + std::string(std::strerror(errno)));
        std::setvbuf(f_, nullptr, _IOFBF, 1 << 20);
    }
    JsonOut(const JsonOut&) = delete;
    JsonOut& operator=(const JsonOut&) = delete;
    ~JsonOut() {
        if (f_)
            std::fclose(f_);
    }
    void event(const std::string& json) {
        write(first_ ? "\n" : ",\n");
        first_ = false;
        write(json);
    }
    void write(const std::string& s) {
        if (std::fwrite(s.data(), 1, s.size(), f_) != s.size())
            throw ReportError(path_, "write failed: " + std::string(std::strerror(errno)));
        bytes_ += s.size();
    }
    void close() {
        if (std::fclose(f_) != 0) {
            f_ = nullptr;
            throw ReportError(path_, "write failed: " + std::string(std::strerror(errno)));
        }
        f_ = nullptr;
    }
    std::uint64_t bytes() const { return bytes_; }

private:
    std::string path_;
    std::FILE* f_ = nullptr;
    bool first_ = true;
    std::uint64_t bytes_ = 0;
};

/// Writes the device steps of a profile report as trace events of process `pid` (see
/// exportChromeTrace); returns the number of events written.
std::uint64_t exportDeviceEvents(const std::filesystem::path& profile, std::int64_t pid,
                                 JsonOut& out);

/// Writes the heatmaps of a host trace as counters, one series per bucket, the values added per
/// time bin (ChromeTraceHeatmapExport.cpp); returns the number of counter events written.
std::uint64_t exportHeatmapCounters(const sql::Database& db, JsonOut& out);

} // namespace tilescope::report::detail
