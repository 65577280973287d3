// `tilescope-cli export FILE --table T`: streams one table of the format as CSV or JSON. Column
// types come from the schema (which ReportFile has checked against the format's definition), so
// numbers stay numbers in JSON; per-tile columns are TileSeries blobs, written as hex or, with
// --decode-series, as arrays of one value per tile.

#include "CliErrors.hpp"
#include "Commands.hpp"
#include "ReportOpening.hpp"
#include "TableWriter.hpp"
#include "tilescope/report/TileSeries.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <memory>
#include <system_error>
#include <utility>

namespace tilescope::cli {
namespace {

enum class ColumnType { Number, Text, Blob };

struct Column {
    std::string name;
    ColumnType type = ColumnType::Text;
};

std::string quoteIdentifier(const std::string& name) {
    std::string out = "\"";
    for (char c : name)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::vector<Column> columnsOf(const report::ReportFile& file, const std::string& table) {
    std::vector<Column> columns;
    file.query(
        "PRAGMA table_info(" + quoteIdentifier(table) + ")", [](const std::vector<std::string>&) {},
        [&](const report::ReportFile::Row& row) {
            // cid, name, type, notnull, dflt_value, pk
            const std::string type = row.size() > 2 && row[2] ? *row[2] : "";
            Column c{row.size() > 1 && row[1] ? *row[1] : "", ColumnType::Text};
            if (type == "BLOB")
                c.type = ColumnType::Blob;
            else if (type == "INTEGER" || type == "REAL")
                c.type = ColumnType::Number;
            columns.push_back(std::move(c));
            return true;
        });
    return columns;
}

int hexDigit(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/// ReportFile::query renders a blob as the SQL literal x'0a1b...'; returns the hex digits, or
/// nothing when the value is not such a literal (a damaged file may hold text in a BLOB column).
std::optional<std::string_view> blobHex(const std::string& value) {
    if (value.size() < 3 || value.compare(0, 2, "x'") != 0 || value.back() != '\'')
        return std::nullopt;
    return std::string_view(value).substr(2, value.size() - 3);
}

std::string seriesJson(std::string_view hex) {
    std::string bytes(hex.size() / 2, '\0');
    for (std::size_t i = 0; i < bytes.size(); ++i)
        bytes[i] = static_cast<char>(hexDigit(hex[2 * i]) * 16 + hexDigit(hex[2 * i + 1]));
    const auto values = report::TileSeries::decode(bytes.data(), bytes.size());
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i)
            out += ',';
        out += std::to_string(values[i]);
    }
    return out + "]";
}

/// One exported value: numbers stay numbers, per-tile blobs become hex or decoded arrays, and
/// anything else (including a value whose type does not match its column) is text.
Cell exportCell(const std::optional<std::string>& value, ColumnType type, bool decodeSeries) {
    if (!value)
        return {};
    if (type == ColumnType::Number)
        return inferCell(value);
    if (type == ColumnType::Blob)
        if (const auto hex = blobHex(*value))
            return decodeSeries ? Cell{Cell::Kind::Json, seriesJson(*hex)}
                                : Cell{Cell::Kind::Text, std::string(*hex)};
    return {Cell::Kind::Text, *value};
}

/// Where the export goes: standard output, or a file that is removed again if the export fails
/// so that a half-written file is never mistaken for a complete one.
class ExportDestination {
public:
    explicit ExportDestination(const std::string& path) : path_(path) {
        if (path_.empty())
            return;
        file_ = std::fopen(path_.c_str(), "wb");
        if (!file_)
            throw OutputError(path_, std::string("cannot create: ") + std::strerror(errno));
    }
    ~ExportDestination() {
        if (!file_)
            return;
        std::fclose(file_);
        if (!committed_) {
            std::error_code ignored;
            std::filesystem::remove(path_, ignored);
        }
    }
    ExportDestination(const ExportDestination&) = delete;
    ExportDestination& operator=(const ExportDestination&) = delete;

    std::FILE* stream() const { return file_ ? file_ : stdout; }
    std::string name() const { return path_.empty() ? "standard output" : path_; }
    void commit() {
        if (file_ && std::fclose(std::exchange(file_, nullptr)) != 0)
            throw OutputError(path_, std::string("cannot write: ") + std::strerror(errno));
        committed_ = true;
    }

private:
    std::string path_;
    std::FILE* file_ = nullptr;
    bool committed_ = false;
};

} // namespace

int runExport(const ExportOptions& options) {
    const TableFormat format = parseTableFormat(options.format);
    const report::ReportFile file = openReportFile(options.file);
    const std::string& path = file.path();

    const auto tables = readingReport(path, [&] { return file.tables(); });
    if (std::find(tables.begin(), tables.end(), options.table) == tables.end()) {
        std::string list;
        for (const auto& t : tables)
            list += (list.empty() ? "" : ", ") + t;
        throw UsageError(
            fmt::format("{} has no table '{}' (its tables: {})", path, options.table, list));
    }
    const auto columns = readingReport(path, [&] { return columnsOf(file, options.table); });
    std::error_code ec;
    if (!options.output.empty() && std::filesystem::equivalent(options.output, path, ec))
        throw UsageError(
            fmt::format("-o {} would overwrite the report being exported", options.output));

    ExportDestination destination(options.output);
    const auto writer = makeTableWriter(format, destination.stream(), destination.name());
    std::uint64_t rowNumber = 0;
    std::vector<Cell> cells;
    readingReport(path, [&] {
        file.query(
            "SELECT * FROM " + quoteIdentifier(options.table),
            [&](const std::vector<std::string>& header) { writer->begin(header); },
            [&](const report::ReportFile::Row& row) {
                ++rowNumber;
                cells.resize(row.size());
                for (std::size_t i = 0; i < row.size(); ++i) {
                    const Column& column = i < columns.size() ? columns[i] : Column{};
                    try {
                        cells[i] = exportCell(row[i], column.type, options.decodeSeries);
                    } catch (const report::ReportError& e) {
                        throw report::ReportError(
                            path, fmt::format("table {}, row {}, column {}: {}", options.table,
                                              rowNumber, column.name, e.problem()));
                    }
                }
                writer->row(cells);
                return true;
            });
    });
    writer->end();
    destination.commit();
    return kExitOk;
}

} // namespace tilescope::cli
