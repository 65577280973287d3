#pragma once
// Tables of `tilescope-cli compare`, printed as aligned text or as GitHub-flavoured markdown (to
// paste into a pull request), and the signed figures they hold.

#include "tilescope/report/ReportComparison.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::cli {

enum class CompareFormat { Text, Json, Markdown };

/// A titled table; columns after the first `leftColumns` are right-aligned (numbers).
struct ComparisonTable {
    std::string title;
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
    std::size_t leftColumns = 1;
};

/// "+1,234", "-56", "0".
std::string signedDigits(std::int64_t value);
/// "+12.35%", "-0.50%", "0.00%"; "new" when the source is 0 and the target is not, "-" for 0/0.
std::string formatChange(const report::ComparedValue& value);
/// The four cells source, target, difference, change; "-" for a side the figure is absent from.
std::vector<std::string> valueCells(const report::ComparedValue& value);

/// Writes the table to standard output in `format` (Text or Markdown).
void printTable(const ComparisonTable& table, CompareFormat format);
/// A heading (markdown "### ") or an underlined text heading.
void printHeading(const std::string& title, CompareFormat format);

} // namespace tilescope::cli
