#pragma once
// Engine options: the names Poplar accepts that the simulator knows, their validation, and the
// POPLAR_ENGINE_OPTIONS environment variable.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::sim {

/// Where an option's value came from.
enum class OptionSource { Default, Api, Environment };

struct EffectiveOption {
    std::string name;
    std::string value;
    OptionSource source = OptionSource::Api;
    bool applies = true; ///< false for options accepted for compatibility but without effect here
};

/// Validated engine options. Unknown names and malformed values throw poplar::invalid_option
/// naming the option; malformed POPLAR_ENGINE_OPTIONS JSON throws poplar::parse_error.
/// Environment values override those given through the API, as in Poplar.
struct EngineOptions {
    bool allowOutOfMemory = false;         ///< debug.allowOutOfMemory
    bool instrument = false;               ///< debug.instrument
    unsigned hostThreads = 0;              ///< tilescope.hostThreads: 0 = all hardware threads
    bool autoReportGraph = false;          ///< autoReport.all / autoReport.outputGraphProfile
    bool autoReportExecution = false;      ///< autoReport.all / autoReport.outputExecutionProfile
    std::string autoReportDirectory = "."; ///< autoReport.directory
    std::vector<EffectiveOption> effective;

    /// `environmentJson` is the value of POPLAR_ENGINE_OPTIONS, or null.
    static EngineOptions parse(const std::vector<std::pair<std::string, std::string>>& api,
                               const char* environmentJson);
};

} // namespace tilescope::sim
