#pragma once
// The Operations view nests and rolls up operations with the report library's OperationRollup.

#include "tilescope/report/OperationRollup.hpp"

namespace tilescope::gui {

using OperationRollup = report::OperationRollup;

} // namespace tilescope::gui
