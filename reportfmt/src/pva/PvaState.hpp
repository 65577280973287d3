#pragma once
// What the pva face's other source files need of the shared report state (PvaReport.cpp).

#include "pva/pva.hpp"
#include "tilescope/report/ProfileReader.hpp"

namespace pva::detail {

/// The reader behind a report's state.
tilescope::report::ProfileReader& readerOf(const StatePtr& state);

} // namespace pva::detail
