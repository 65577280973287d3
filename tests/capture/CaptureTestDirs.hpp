// Fresh output folders for the capture tests, and trace options that write into one. Each test
// binary names its own suite folder, so binaries that ctest runs at once never share a folder.
#pragma once

#include "tilescope/capture/TraceOptions.hpp"

#include <filesystem>
#include <string>

namespace tilescope::capture::test {

/// An empty folder `<temp>/<suite>/<name>`, whatever a previous run left there.
inline std::filesystem::path freshDir(const std::string& suite, const std::string& name) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / suite / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

/// Host tracing enabled, writing its trace file into `dir`.
inline TraceOptions enabledIn(const std::filesystem::path& dir) {
    TraceOptions o;
    o.enable = true;
    o.directory = dir;
    return o;
}

} // namespace tilescope::capture::test
