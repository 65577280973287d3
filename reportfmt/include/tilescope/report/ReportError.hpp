#pragma once

#include <stdexcept>
#include <string>

namespace tilescope::report {

/// Any failure to open, validate, read or write a report or host-trace file. The message always
/// starts with the file it concerns ("path: problem") so that a command-line tool can print it as
/// the single line a user needs, and the GUI can show it in a dialog unchanged.
class ReportError : public std::runtime_error {
public:
    ReportError(const std::string& file, const std::string& problem)
        : std::runtime_error(file.empty() ? problem : file + ": " + problem), file_(file),
          problem_(problem) {}

    const std::string& file() const noexcept { return file_; }
    const std::string& problem() const noexcept { return problem_; }

private:
    std::string file_;
    std::string problem_;
};

} // namespace tilescope::report
