#pragma once

#include "LockedReader.hpp"
#include "ViewState.hpp"
#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/ProfileSummary.hpp"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::gui {

/// One open report: the reader, the figures every view needs at once (summary, engine options),
/// and the per-report ViewState. Opening (`open`) validates the file and summarizes it; it is
/// meant to run on a worker thread. Afterwards models reach the file only through `read`, which
/// serializes access (a ProfileReader is not thread-safe) and turns any failure into a
/// ReportError that names the file, so a damaged page found late reads like one found at open.
class ReportSession {
public:
    /// `FILE` may be a profile.pop or a report folder. `progress` receives (fraction, stage);
    /// returning false from `keepGoing` abandons the open between stages (returns nullptr).
    static std::shared_ptr<ReportSession>
    open(const std::string& argument, const std::function<void(double, const char*)>& progress,
         const std::function<bool()>& keepGoing);

    /// The profile.pop an argument names (itself, or DIR/profile.pop).
    static std::string resolvePath(const std::string& argument);

    const std::string& path() const { return path_; }
    const report::ProfileSummary& summary() const { return summary_; }
    const std::vector<report::EngineOption>& engineOptions() const { return engineOptions_; }
    const report::TargetInfo& target() const { return summary_.target; }
    const std::vector<report::MemoryCategory>& categories() const { return categories_; }
    /// A metadata value of the report (read at open), or `fallback` when it has none.
    std::string metadata(const std::string& key, const std::string& fallback = {}) const;
    /// The report format version the file was written with.
    int formatVersion() const { return formatVersion_; }

    /// Runs `f(const ProfileReader&)` under the session's lock. Call from worker threads only.
    template <class F>
    auto read(F&& f) const -> decltype(f(std::declval<const report::ProfileReader&>())) {
        return reader_.read(std::forward<F>(f));
    }

    /// The user's view settings; UI thread only.
    ViewState& state() { return state_; }

private:
    explicit ReportSession(std::string path) : path_(std::move(path)), reader_(path_) {}

    std::string path_;
    LockedReader<report::ProfileReader> reader_;
    report::ProfileSummary summary_;
    std::vector<report::EngineOption> engineOptions_;
    std::vector<report::MemoryCategory> categories_;
    std::map<std::string, std::string> metadata_;
    int formatVersion_ = 0;
    ViewState state_;
};

} // namespace tilescope::gui
