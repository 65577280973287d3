// libFuzzer target for the Chrome trace import: the bytes are a trace-event JSON file. Any input
// must either import into a host trace that opens and holds what the import counted, or raise a
// ReportError that leaves no output behind; anything else (another exception, a crash, a
// sanitizer report) is a bug.

#include "tilescope/report/ChromeTrace.hpp"
#include "tilescope/report/HostTraceReader.hpp"
#include "tilescope/report/ReportError.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {
/// The fuzzer's scratch folder, removed when the process exits.
struct ScratchDir {
    fs::path path;
    ~ScratchDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // tmpfs when there is one: each input writes a small SQLite file, and syncing it to a disk
    // would be most of the run time.
    static const ScratchDir scratch{[] {
        const fs::path base =
            fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
        fs::path d = base / ("tilescope-fuzz-trace-" + std::to_string(::getpid()));
        fs::create_directories(d);
        return d;
    }()};
    const fs::path& dir = scratch.path;
    const fs::path in = dir / "in.json", out = dir / "out.pvti";
    std::ofstream(in, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    fs::remove(out);
    std::error_code ec;
    fs::remove(out.string() + ".partial-json", ec);
    using tilescope::report::ReportError;
    try {
        const auto stats = tilescope::report::importChromeTrace(in, out);
        const tilescope::report::HostTraceReader reader(out.string());
        if (reader.counts().events != static_cast<std::int64_t>(stats.events))
            __builtin_trap();
    } catch (const ReportError&) {
        if (fs::exists(out) || fs::exists(out.string() + ".partial") ||
            fs::exists(out.string() + ".partial-json"))
            __builtin_trap();
    }
    return 0;
}
