#pragma once
// A real capture shared by the joint-timeline tests: the mlp_training example (simcore/examples)
// run once per test process with autoReport on, giving profile.pop and the host trace of the
// same run.

#include <filesystem>

namespace tilescope::gui::test {

struct CapturedExample {
    std::filesystem::path profile;   ///< report/profile.pop
    std::filesystem::path hostTrace; ///< report/*.pvti
};

/// Runs the example (path from TILESCOPE_EXAMPLE_MLP_TRAINING) on first use; fails the test if
/// it does not exit 0 or does not leave exactly one host trace next to the profile.
const CapturedExample& capturedTraining();
/// The same with lightweight profiling: every program wrapped in a block
/// (profiler.programs.filter ".*") and stream copies recorded (debug.instrumentExternalExchange).
const CapturedExample& capturedTrainingWithBlocks();

} // namespace tilescope::gui::test
