// The pva face's report: pva::openReport over ProfileReader, the report's Poplar version and
// file. The objects it hands out (PvaProgram.cpp, PvaMemory.cpp, PvaCompilation.cpp,
// PvaExecution.cpp) hold the shared ReportState (PvaState.hpp).

#include "PvaState.hpp"
#include "tilescope/report/Version.hpp"

#include <cctype>

namespace pva {

using tilescope::report::ProfileReader;
using tilescope::report::ReportError;

// Version ----------------------------------------------------------------------------------------

Version::Version(std::string text) : text_(std::move(text)) {
    std::size_t pos = 0;
    unsigned* parts[] = {&major_, &minor_, &point_};
    for (unsigned* part : parts) {
        unsigned value = 0;
        bool any = false;
        while (pos < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos]))) {
            value = value * 10 + static_cast<unsigned>(text_[pos] - '0');
            ++pos;
            any = true;
        }
        if (!any)
            break;
        *part = value;
        if (pos < text_.size() && text_[pos] == '.')
            ++pos;
        else
            break;
    }
    std::string rest = text_.substr(pos);
    const auto first = rest.find_first_not_of(" +-(");
    const auto last = rest.find_last_not_of(" )");
    packageHash_ =
        first == std::string::npos ? std::string() : rest.substr(first, last - first + 1);
}

// Report -----------------------------------------------------------------------------------------

Version Report::poplarVersion() const {
    const auto& file = state_->r().file();
    return Version(file.metadataValue(
        "poplar_version", file.metadataValue("tool_version", tilescope::report::kToolVersion)));
}

const std::string& Report::reportFilename() const {
    return state_->r().path();
}

Report openReport(const std::string& reportPath, const std::string& /*debugInfoPath*/) {
    try {
        auto reader = std::make_shared<ProfileReader>(reportPath);
        return Report(std::make_shared<detail::ReportState>(std::move(reader)));
    } catch (const ReportError& e) {
        throw openfile_error(e.what());
    } catch (const std::exception& e) {
        // e.g. a metadata value that does not parse: still a file problem, still one line.
        throw openfile_error(reportPath + ": file is damaged (" + e.what() + ")");
    }
}

} // namespace pva
