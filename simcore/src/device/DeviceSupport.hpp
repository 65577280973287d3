#pragma once
// Helpers shared by the device files: target figures by architecture name, and the simulated IPU
// hardware that TILESCOPE_SIMULATED_IPUS configures.

#include "poplar/StringRef.hpp"
#include "tilescope/sim/TargetSpec.hpp"

#include <string>

namespace tilescope::sim {

/// The figures of architecture `systemType`; throws poplar::invalid_option naming `what`.
TargetSpec targetSpecFor(poplar::StringRef systemType, const char* what);

/// The environment variable that sets the number of simulated IPUs.
inline constexpr const char* simulatedIpusVariable = "TILESCOPE_SIMULATED_IPUS";

/// The number of simulated IPUs: 0 when TILESCOPE_SIMULATED_IPUS is unset or empty. Throws
/// poplar::poplar_error naming the variable for a value that is not a power of two from 1 to 64.
unsigned simulatedIpuCount();

/// Where the per-IPU lock files live: $TILESCOPE_DEVICE_LOCK_DIR, else
/// ${XDG_RUNTIME_DIR:-/tmp}/tilescope-ipus-<uid>.
std::string simulatedIpuLockDirectory();

} // namespace tilescope::sim
