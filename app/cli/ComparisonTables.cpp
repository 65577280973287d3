#include "ComparisonTables.hpp"

#include "Units.hpp"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>

namespace tilescope::cli {

std::string signedDigits(std::int64_t value) {
    if (value == 0)
        return "0";
    const auto magnitude = value < 0 ? static_cast<std::uint64_t>(-(value + 1)) + 1
                                     : static_cast<std::uint64_t>(value);
    return (value < 0 ? "-" : "+") + groupDigits(magnitude);
}

std::string formatChange(const report::ComparedValue& value) {
    if (const auto p = value.percentChange())
        return fmt::format("{:+.2f}%", *p);
    return value.target == 0 ? "-" : "new";
}

std::vector<std::string> valueCells(const report::ComparedValue& value) {
    return {value.inSource ? groupDigits(value.source) : "-",
            value.inTarget ? groupDigits(value.target) : "-", signedDigits(value.difference()),
            formatChange(value)};
}

namespace {

// Markdown cells must not break the table: pipes are escaped and line breaks flattened.
std::string markdownCell(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '|')
            out += "\\|";
        else if (c == '\n' || c == '\r')
            out += ' ';
        else
            out += c;
    }
    return out;
}

} // namespace

void printHeading(const std::string& title, CompareFormat format) {
    if (format == CompareFormat::Markdown)
        fmt::print("\n### {}\n\n", title);
    else
        fmt::print("\n{}\n{}\n", title, std::string(title.size(), '-'));
}

void printTable(const ComparisonTable& table, CompareFormat format) {
    if (!table.title.empty())
        printHeading(table.title, format);
    if (format == CompareFormat::Markdown) {
        fmt::print("|");
        for (const auto& c : table.columns)
            fmt::print(" {} |", markdownCell(c));
        fmt::print("\n|");
        for (std::size_t i = 0; i < table.columns.size(); ++i)
            fmt::print("{}", i < table.leftColumns ? "---|" : "---:|");
        fmt::print("\n");
        for (const auto& row : table.rows) {
            fmt::print("|");
            for (const auto& cell : row)
                fmt::print(" {} |", markdownCell(cell));
            fmt::print("\n");
        }
        if (table.rows.empty())
            fmt::print("\n(none)\n");
        return;
    }
    std::vector<std::size_t> width(table.columns.size(), 0);
    for (std::size_t i = 0; i < table.columns.size(); ++i)
        width[i] = table.columns[i].size();
    for (const auto& row : table.rows)
        for (std::size_t i = 0; i < row.size() && i < width.size(); ++i)
            width[i] = std::max(width[i], row[i].size());
    const auto line = [&](const std::vector<std::string>& cells) {
        std::string out = " ";
        for (std::size_t i = 0; i < cells.size() && i < width.size(); ++i) {
            out += ' ';
            out += i < table.leftColumns ? fmt::format("{:<{}}", cells[i], width[i])
                                         : fmt::format("{:>{}}", cells[i], width[i]);
            out += ' ';
        }
        while (!out.empty() && out.back() == ' ')
            out.pop_back();
        fmt::print("{}\n", out);
    };
    line(table.columns);
    if (table.rows.empty())
        fmt::print("  (none)\n");
    for (const auto& row : table.rows)
        line(row);
}

} // namespace tilescope::cli
