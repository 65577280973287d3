#pragma once

#include "tilescope/report/ReportFile.hpp"

namespace tilescope::cli {

/// `summary` of a host trace (.pvti): counts, time span and events per thread.
void printHostTraceSummary(report::ReportFile file, bool asJson);

} // namespace tilescope::cli
