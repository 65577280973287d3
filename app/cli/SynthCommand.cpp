// `tilescope-cli synth DIR`: writes a synthetic report of the requested size (for tests, demos
// and scale work) and prints the files written.

#include "CliErrors.hpp"
#include "Commands.hpp"
#include "Units.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <functional>
#include <stdexcept>
#include <system_error>
#include <unistd.h>

namespace tilescope::cli {
namespace {

std::string describeFile(const std::filesystem::path& path) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    return ec ? path.string() : fmt::format("{} ({})", path.string(), formatBytesShort(size));
}

} // namespace

int runSynth(const SynthOptions& options) {
    // A progress line only for a person watching: redirected output stays clean for scripts.
    const bool showProgress = isatty(STDERR_FILENO) == 1;
    int shownPercent = -1;
    const auto progress = [&](double fraction) {
        const int percent = static_cast<int>(std::clamp(fraction, 0.0, 1.0) * 100.0);
        if (percent == shownPercent)
            return;
        shownPercent = percent;
        fmt::print(stderr, "\rgenerating synthetic report: {:3}%", percent);
        std::fflush(stderr);
    };
    report::SyntheticOutput written;
    try {
        written = report::generateSyntheticReport(options.directory, options.spec,
                                                  showProgress ? progress
                                                               : std::function<void(double)>());
    } catch (const std::invalid_argument& e) {
        if (showProgress)
            fmt::print(stderr, "\n");
        throw UsageError(std::string("synth: ") + e.what());
    } catch (...) {
        if (showProgress)
            fmt::print(stderr, "\n");
        throw;
    }
    if (showProgress)
        fmt::print(stderr, "\r{:40}\r", "");
    fmt::print("wrote {}\n", describeFile(written.profile));
    if (!written.hostTrace.empty())
        fmt::print("wrote {}\n", describeFile(written.hostTrace));
    return kExitOk;
}

} // namespace tilescope::cli
