#include "ReportSession.hpp"

#include "tilescope/report/ReportError.hpp"

#include <exception>
#include <filesystem>
#include <new>
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

void ReportSession::rethrowAsReportError() const {
    // Readers promise ReportErrors, but a damaged file must never surface as a bare "stoull"
    // without naming the file being read.
    try {
        throw;
    } catch (const ReportError&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw ReportError(path_, "file is damaged or too large (out of memory while reading it)");
    } catch (const std::exception& e) {
        throw ReportError(path_, std::string("file is damaged (") + e.what() + ")");
    }
}

std::shared_ptr<ReportSession>
ReportSession::open(const std::string& argument,
                    const std::function<void(double, const char*)>& progress,
                    const std::function<bool()>& keepGoing) {
    std::shared_ptr<ReportSession> s(new ReportSession);
    s->path_ = resolvePath(argument);
    auto stage = [&](double fraction, const char* what) {
        if (progress)
            progress(fraction, what);
        return !keepGoing || keepGoing();
    };
    if (!stage(0.0, "Opening and validating"))
        return nullptr;
    s->guarded([&] { s->reader_ = std::make_unique<report::ProfileReader>(s->path_); });
    if (!s->reader_->hasCompilation())
        throw ReportError(s->path_, "report has no compile profile yet (the writer stopped "
                                    "before compilation finished)");
    if (!stage(0.3, "Summarizing memory and runs"))
        return nullptr;
    s->summary_ = s->guarded([&] { return report::summarize(*s->reader_); });
    if (!stage(0.8, "Reading engine options"))
        return nullptr;
    s->engineOptions_ = s->guarded([&] { return s->reader_->engineOptions(); });
    s->categories_ = s->reader_->memoryCategories();
    stage(1.0, "Done");
    return s;
}

} // namespace tilescope::gui
