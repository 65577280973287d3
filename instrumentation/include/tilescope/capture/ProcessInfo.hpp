#pragma once

#include <string>

namespace tilescope::capture {

/// The command line of this process, arguments separated by spaces, as recorded in reports and
/// host traces (empty where /proc is not available).
std::string processCommandLine();

} // namespace tilescope::capture
