#pragma once

#include <map>
#include <string>

namespace tilescope::capture {

/// The environment variable that gives PopLibs operations option defaults from outside the
/// program (a TileScope extension: the SDK has no such variable).
inline constexpr const char* kPoplibsOptionsVariable = "TILESCOPE_POPLIBS_OPTIONS";

/// PopLibs operation options given from outside the program, per operation: a JSON object such as
/// {"matmul": {"availableMemoryProportion": "0.3", "partialsType": "half"}}. Operation names are
/// lower case ("matmul", "convolution", ...); values are strings, numbers or booleans (numbers and
/// booleans are taken as their JSON text). They are defaults: an option the program passes itself
/// wins, so a sweep varies what the program leaves open. Each operation still checks names and
/// values as it does for its own options. A malformed text throws OptionsError naming the
/// variable, the operation and the option.
struct PoplibsOptionDefaults {
    std::map<std::string, std::map<std::string, std::string>> byOperation;

    /// `json` null or blank: no defaults.
    static PoplibsOptionDefaults parse(const char* json);
    /// From TILESCOPE_POPLIBS_OPTIONS (read at each call, so tests may change it).
    static PoplibsOptionDefaults fromEnvironment();

    /// The defaults of one operation (empty when none).
    const std::map<std::string, std::string>& of(const std::string& operation) const;
    bool empty() const { return byOperation.empty(); }
    /// Normalised JSON text, for the report's metadata.
    std::string toJson() const;
};

} // namespace tilescope::capture
