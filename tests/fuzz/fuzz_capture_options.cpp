// libFuzzer target for the capture options parsers: the bytes are the value of
// POPLAR_ENGINE_OPTIONS, then of PVTI_OPTIONS. Any input must either parse or raise
// OptionsError; anything else (another exception, a crash, a sanitizer report) is a bug.

#include "tilescope/capture/EngineOptions.hpp"
#include "tilescope/capture/TraceOptions.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    using tilescope::capture::OptionsError;
    try {
        const auto o =
            tilescope::capture::EngineOptions::parse({{"autoReport.all", "false"}}, text.c_str());
        // Parsed options are internally consistent.
        if (o.inForce.empty())
            __builtin_trap();
    } catch (const OptionsError&) {
    }
    try {
        tilescope::capture::TraceOptions::parse(text);
    } catch (const OptionsError&) {
    }
    return 0;
}
