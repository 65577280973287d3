#pragma once

#include <stdexcept>
#include <string>

namespace tilescope::cli {

/// Process exit codes, documented in the --help footer.
enum ExitCode : int {
    kExitOk = 0,
    kExitReportError = 1, // the report could not be opened, read or queried; output not written
    kExitUsage = 2,       // bad command line: unknown option, table or format
};

/// A command line that parsed but asks for something impossible (a table the format does not
/// have, a bad synthetic spec). Exits with kExitUsage.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Output could not be written (a full disk, an unwritable -o path). Exits with kExitReportError.
class OutputError : public std::runtime_error {
public:
    OutputError(const std::string& target, const std::string& problem)
        : std::runtime_error(target + ": " + problem) {}
};

} // namespace tilescope::cli
