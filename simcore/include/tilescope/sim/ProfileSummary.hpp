#pragma once
// Text summary of compile and execution records, as Engine::printProfileSummary prints it.

#include "tilescope/capture/ProfileRecords.hpp"

#include <ostream>

namespace tilescope::sim {

struct ProfileSummaryOptions {
    bool showExecutionSteps = false; ///< list every executed step of every run
    bool showVarStorage = false;     ///< list the largest variables and their liveness
};

void printProfileSummary(std::ostream& out, const capture::CompileRecords& compile,
                         const capture::ExecutionRecords& execution,
                         const ProfileSummaryOptions& options);

} // namespace tilescope::sim
