#include "tilescope/sim/EngineOptions.hpp"

#include "poplar/exceptions.hpp"

namespace tilescope::sim {

capture::EngineOptions
parseEngineOptions(const std::vector<std::pair<std::string, std::string>>& api,
                   const char* environmentJson) {
    try {
        return capture::EngineOptions::parse(api, environmentJson);
    } catch (const capture::OptionsError& e) {
        throw poplar::invalid_option(e.what());
    }
}

} // namespace tilescope::sim
