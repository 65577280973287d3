#pragma once

namespace tilescope::report {

/// Version of the TileScope tools that wrote a file (recorded in every report's metadata).
inline constexpr const char* kToolVersion = "0.1.0";

} // namespace tilescope::report
