#include "ReportSession.hpp"

#include "tilescope/report/ReportError.hpp"

#include <filesystem>
#include <system_error>

namespace tilescope::gui {

using report::ReportError;

std::string ReportSession::resolvePath(const std::string& argument) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(argument, ec))
        return argument;
    const fs::path profile = fs::path(argument) / "profile.pop";
    if (!fs::exists(profile, ec))
        throw ReportError(argument, "is a folder without a profile.pop report");
    return profile.string();
}

std::shared_ptr<ReportSession>
ReportSession::open(const std::string& argument,
                    const std::function<void(double, const char*)>& progress,
                    const std::function<bool()>& keepGoing) {
    std::shared_ptr<ReportSession> s(new ReportSession(resolvePath(argument)));
    auto stage = [&](double fraction, const char* what) {
        if (progress)
            progress(fraction, what);
        return !keepGoing || keepGoing();
    };
    if (!stage(0.0, "Opening and validating"))
        return nullptr;
    if (!s->read([](const report::ProfileReader& r) { return r.hasCompilation(); }))
        throw ReportError(s->path_, "report has no compile profile yet (the writer stopped "
                                    "before compilation finished)");
    if (!stage(0.3, "Summarizing memory and runs"))
        return nullptr;
    s->summary_ = s->read([](const report::ProfileReader& r) { return report::summarize(r); });
    if (!stage(0.8, "Reading engine options"))
        return nullptr;
    s->engineOptions_ = s->read([](const report::ProfileReader& r) { return r.engineOptions(); });
    s->read([&](const report::ProfileReader& r) {
        s->metadata_ = r.file().metadata();
        s->formatVersion_ = r.file().formatVersion();
    });
    s->categories_ = s->read([](const report::ProfileReader& r) { return r.memoryCategories(); });
    stage(1.0, "Done");
    return s;
}

std::string ReportSession::metadata(const std::string& key, const std::string& fallback) const {
    const auto it = metadata_.find(key);
    return it == metadata_.end() ? fallback : it->second;
}

} // namespace tilescope::gui
