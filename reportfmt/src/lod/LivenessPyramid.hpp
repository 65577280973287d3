#pragma once

#include "sqlite/Sqlite.hpp"

#include <string_view>

namespace tilescope::report::detail {

/// Fills `<schema>.liveness_lod` from the step table: level 0 aggregates kLivenessLodBaseSteps
/// consecutive steps, each next level four buckets of the previous, until a level fits in 1024
/// buckets. The writer runs it on "main" when compilation ends; the v1 migration on "temp".
void buildLivenessPyramid(sql::Database& db, std::string_view schema);

} // namespace tilescope::report::detail
