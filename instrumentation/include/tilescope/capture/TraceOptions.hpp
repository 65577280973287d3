#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::capture {

/// A malformed capture option (PVTI_OPTIONS, POPLAR_ENGINE_OPTIONS): the message names the
/// variable, the option and what was expected.
class OptionsError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// Host tracing options from the PVTI_OPTIONS environment variable, a JSON object such as
/// `{"enable":"true","directory":"./trace","channels":["poplar","user"]}`. Unset means tracing
/// is off and no file is written. `channels` (array of names, or one comma-separated string)
/// restricts tracing to those channels; absent means all. `bufferLimitMB` bounds the events
/// buffered for the writer thread (default 256): past it, new events are dropped and counted.
struct TraceOptions {
    static constexpr std::int64_t kDefaultBufferLimitBytes = std::int64_t{256} << 20;

    bool enable = false;
    std::filesystem::path directory = ".";
    std::optional<std::vector<std::string>> channels;
    std::int64_t bufferLimitBytes = kDefaultBufferLimitBytes;

    bool channelEnabled(std::string_view name) const;

    /// Parses the JSON text of PVTI_OPTIONS; throws OptionsError.
    static TraceOptions parse(std::string_view json);
    /// Reads PVTI_OPTIONS (disabled when unset); throws OptionsError.
    static TraceOptions fromEnvironment();
};

} // namespace tilescope::capture
