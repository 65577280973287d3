#pragma once
// The report pair of tests/compare/TwoReports.hpp written once per test process, for the compare
// views' model and screenshot tests: every figure the comparison must find is known.

#include <filesystem>

namespace tilescope::gui::test {

struct ComparePairPaths {
    std::filesystem::path source;
    std::filesystem::path target;
};

/// Source run: a 100, b 200, a 100, b 200 cycles; target run: a 100, c 300, a 120, c 300, a 100.
const ComparePairPaths& comparePair();

} // namespace tilescope::gui::test
