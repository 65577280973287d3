#pragma once
// The cases of simcore/CALIBRATION.md: each compares one figure the simulator produces with a
// published one. Adding a row is one entry in calibrationCases() (CalibrationCases.cpp).

#include <functional>
#include <string>
#include <vector>

namespace tilescope::calibration {

/// One calibrated figure: what it is, its unit, the published value and where it was published,
/// and how to obtain the simulator's value (usually by compiling a small program).
struct CalibrationCase {
    std::string figure;
    std::string unit;
    double published = 0;
    std::string source;
    std::function<double()> ours;
};

/// Every case, in the order of the table.
std::vector<CalibrationCase> calibrationCases();

} // namespace tilescope::calibration
