#pragma once
// A pair of small reports written with ProfileWriter where every number is chosen by the test:
// the "source" and a "target" that changes a known set of things (memory per tile, one program
// removed, one added, one operation removed and one added, a longer run). The figures the
// comparison must find are spelled out here, next to the data that produces them.

#include "tilescope/report/ProfileWriter.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace tilescope::testing {

/// Which of the two reports to write.
enum class Variant { Source, Target };

/// Writes the report; `runSteps` lists the executed steps by program name ("a", "b", "c") with
/// their cycles.
struct ExecutedStep {
    std::string program;
    std::uint64_t cycles;
};

struct TwoReportsSpec {
    Variant variant = Variant::Source;
    std::vector<ExecutedStep> run;
};

/// 1 IPU x 4 tiles. Source: main{a: Execute(csA), b: Execute(csB)}; target: main{a, c:
/// Execute(csC)}. Memory per tile (always-live variables, non_interleaved): source 100, 200, 300,
/// 400; target 100, 260, 290, 500; gaps 10 per tile in both. Operations: source mm (a), add (b);
/// target mm (a), relu (c). Variables: w (always live, 40 bytes, of mm), t (not always live,
/// 16 bytes at step 1, of add or relu).
void writeTwoReportsVariant(const std::filesystem::path& path, const TwoReportsSpec& spec);

/// A scratch directory removed at the end.
class ScratchFolder {
public:
    explicit ScratchFolder(const std::string& name);
    ~ScratchFolder();
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

} // namespace tilescope::testing
