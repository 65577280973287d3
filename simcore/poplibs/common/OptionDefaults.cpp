#include "common/OptionDefaults.hpp"

#include <poplar/exceptions.hpp>
#include <tilescope/capture/PoplibsOptionDefaults.hpp>
#include <tilescope/capture/TraceOptions.hpp>

namespace tilescope::poplibs {

poplar::OptionFlags withOptionDefaults(const std::string& operation,
                                       const poplar::OptionFlags& given) {
    capture::PoplibsOptionDefaults defaults;
    try {
        defaults = capture::PoplibsOptionDefaults::fromEnvironment();
    } catch (const capture::OptionsError& e) {
        throw poplar::invalid_option(e.what());
    }
    poplar::OptionFlags out = given;
    for (const auto& [name, value] : defaults.of(operation))
        if (!given.has(name))
            out.set(name, value);
    return out;
}

} // namespace tilescope::poplibs
