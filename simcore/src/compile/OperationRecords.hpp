#pragma once
// Builds the operation records of a compilation from the operation ids graph objects carry.

#include "tilescope/capture/ProfileRecords.hpp"
#include "tilescope/sim/GraphModel.hpp"
#include "tilescope/sim/ProgramLowering.hpp"

namespace tilescope::sim {

/// Fills `records.operations` with every operation a variable, compute set or lowered program
/// node refers to, and the operations enclosing those. An Execute node created without an
/// operation is attributed to its compute set's operation.
void recordOperations(const GraphModel& model, const ProgramLowering& lowering,
                      capture::CompileRecords& records);

} // namespace tilescope::sim
