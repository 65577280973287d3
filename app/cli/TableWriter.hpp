#pragma once
// Row-by-row writers for query results and exported tables, shared by `sql` and `export`. They
// stream: memory stays bounded whatever the number of rows (the text writer keeps one page of
// rows to size its columns).

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::cli {

enum class TableFormat { Text, Csv, Json };

/// Parses "text", "csv" or "json"; throws UsageError otherwise.
TableFormat parseTableFormat(const std::string& name);

/// One value of a row. `Number` holds a valid JSON number token, `Json` any JSON value (a decoded
/// per-tile series), `Text` arbitrary text.
struct Cell {
    enum class Kind { Null, Number, Text, Json };
    Kind kind = Kind::Null;
    std::string value;
};

/// True when `text` is exactly one JSON number token (so "007", "1.", "inf" are not).
bool isJsonNumber(std::string_view text);
/// A cell for a value whose SQL type is unknown: numbers are recognised by their spelling.
Cell inferCell(const std::optional<std::string>& value);

class TableWriter {
public:
    virtual ~TableWriter() = default;
    virtual void begin(const std::vector<std::string>& columns) = 0;
    virtual void row(const std::vector<Cell>& cells) = 0;
    /// Finishes the output; throws OutputError if anything could not be written.
    virtual void end() = 0;
};

/// `outputName` names the destination in error messages ("standard output" or a path).
std::unique_ptr<TableWriter> makeTableWriter(TableFormat format, std::FILE* out,
                                             std::string outputName);

} // namespace tilescope::cli
