#pragma once
// The target as info and summary show it.

#include "tilescope/report/ProfileTypes.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace tilescope::cli {

/// "IPU_MODEL ipu2, 2 IPUs x 1,472 tiles (2,944 tiles), 624.00 KiB per tile, 1.33 GHz".
std::string describeTarget(const report::TargetInfo& target);
nlohmann::json targetJson(const report::TargetInfo& target);

/// Serialises for output; text from a damaged file that is not UTF-8 is replaced, not refused.
std::string dumpJson(const nlohmann::json& value);

} // namespace tilescope::cli
