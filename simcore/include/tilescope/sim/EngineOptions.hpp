#pragma once
// Engine options are defined and validated by the capture layer (they mostly decide what is
// captured); the simulator reads the few that change how it compiles and runs, and reports a bad
// option with Poplar's exception.

#include "tilescope/capture/EngineOptions.hpp"

#include <string>
#include <utility>
#include <vector>

namespace tilescope::sim {

/// Parses the API options and POPLAR_ENGINE_OPTIONS; throws poplar::invalid_option.
capture::EngineOptions
parseEngineOptions(const std::vector<std::pair<std::string, std::string>>& api,
                   const char* environmentJson);

} // namespace tilescope::sim
