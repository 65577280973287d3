#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace tilescope::report {

/// What a synthetic report should look like. The generator builds a plausible program (a repeat
/// loop of compute sets, exchanges and syncs over a linear tile mapping), lays out memory by
/// category with gaps, derives liveness from variable live ranges and runs the program, so every
/// figure in the file is consistent with the others (categories add up to tile totals, the
/// not-always-live per step equals the sum of the variables live there, run steps refer to real
/// steps). Deterministic for a given seed.
struct SyntheticSpec {
    std::uint32_t ipus = 1;
    std::uint32_t tilesPerIpu = 1472;
    std::string ipuVersion = "ipu2";
    std::uint64_t steps = 2000; ///< lowered program steps executed per run
    std::uint32_t runs = 2;
    std::uint64_t variables = 0;  ///< 0: chosen from the step count
    std::uint64_t hostEvents = 0; ///< events in the host trace (0: no .pvti file)
    std::uint32_t hostThreads = 8;
    bool perTileCycles = true; ///< store per-tile cycles of every executed step
    bool outOfMemory = false;  ///< make some tiles exceed their memory
    std::uint64_t seed = 1;
};

/// Paths written by generateSyntheticReport.
struct SyntheticOutput {
    std::filesystem::path profile;   ///< <dir>/profile.pop
    std::filesystem::path hostTrace; ///< <dir>/host.pvti, empty when no host events
};

/// Writes `dir/profile.pop` (and `dir/host.pvti`). `progress`, if given, receives a fraction in
/// [0, 1] now and then. Throws ReportError on failure and std::invalid_argument on a bad spec.
SyntheticOutput generateSyntheticReport(const std::filesystem::path& dir, const SyntheticSpec& spec,
                                        const std::function<void(double)>& progress = {});

} // namespace tilescope::report
