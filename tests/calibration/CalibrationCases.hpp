#pragma once
// The cases of simcore/CALIBRATION.md: each compares one figure the simulator produces with a
// published one. Adding a row is one entry in calibrationCases() (CalibrationCases.cpp).

#include <functional>
#include <string>
#include <vector>

namespace tilescope::calibration {

/// One calibrated figure: what it is, its unit, the published value and where it was published,
/// how to obtain the simulator's value (usually by compiling a small program), and the band the
/// ratio ours / published must stay in (the ctest "calibration: every figure within its band"
/// checks it, except for rows marked open).
struct CalibrationCase {
    std::string figure;
    std::string unit;
    double published = 0;
    std::string source;
    std::function<double()> ours;
    double lowestRatio = 0;
    double highestRatio = 0;
    /// Why the simulator's figure is known to be outside the band for now (empty when the
    /// band is checked): printed in the table; the band check skips the row.
    std::string open;
};

/// Every case, in the order of the table.
std::vector<CalibrationCase> calibrationCases();

/// The whole-program rows of Graphcore's Poplar tutorials 4 and 6 (TutorialCases.cpp).
std::vector<CalibrationCase> tutorialCases();

} // namespace tilescope::calibration
