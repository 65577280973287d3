#include "TableWriter.hpp"

#include "CliErrors.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <set>

namespace tilescope::cli {
namespace {

// Shared plumbing: one FILE*, a name for messages, and a check that every byte got out.
class WriterBase : public TableWriter {
public:
    WriterBase(std::FILE* out, std::string name) : out_(out), name_(std::move(name)) {}

protected:
    void put(std::string_view text) {
        if (!text.empty() && std::fwrite(text.data(), 1, text.size(), out_) != text.size())
            fail();
    }
    void finish() {
        if (std::fflush(out_) != 0 || std::ferror(out_))
            fail();
    }

private:
    [[noreturn]] void fail() {
        throw OutputError(name_, std::string("cannot write: ") + std::strerror(errno));
    }

    std::FILE* out_;
    std::string name_;
};

std::size_t displayWidth(std::string_view s) {
    // Code points, not bytes: UTF-8 continuation bytes do not take a column.
    return static_cast<std::size_t>(std::count_if(
        s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// Aligned columns for people. Widths come from the header and the first page of rows, so memory
// stays bounded for a result of millions of rows; a longer value after that page only pushes the
// rest of its own line to the right.
class TextTableWriter final : public WriterBase {
public:
    using WriterBase::WriterBase;

    void begin(const std::vector<std::string>& columns) override {
        columns_ = columns;
        widths_.assign(columns.size(), 0);
        numeric_.assign(columns.size(), true);
        for (std::size_t i = 0; i < columns.size(); ++i)
            widths_[i] = displayWidth(columns[i]);
    }

    void row(const std::vector<Cell>& cells) override {
        std::vector<std::string> shown(cells.size());
        for (std::size_t i = 0; i < cells.size(); ++i)
            shown[i] = printable(cells[i]);
        ++rows_;
        if (!headerWritten_) {
            for (std::size_t i = 0; i < cells.size() && i < widths_.size(); ++i) {
                widths_[i] = std::max(widths_[i], displayWidth(shown[i]));
                if (cells[i].kind != Cell::Kind::Number && cells[i].kind != Cell::Kind::Null)
                    numeric_[i] = false;
            }
            page_.push_back(std::move(shown));
            if (page_.size() >= kPageRows)
                flushPage();
            return;
        }
        writeLine(shown);
    }

    void end() override {
        flushPage();
        put(fmt::format("({} row{})\n", rows_, rows_ == 1 ? "" : "s"));
        finish();
    }

private:
    static constexpr std::size_t kPageRows = 1000;

    static std::string printable(const Cell& c) {
        if (c.kind == Cell::Kind::Null)
            return "NULL";
        std::string s;
        s.reserve(c.value.size());
        for (char ch : c.value) {
            if (ch == '\n')
                s += "\\n";
            else if (ch == '\r')
                s += "\\r";
            else if (ch == '\t')
                s += "\\t";
            else
                s += ch;
        }
        return s;
    }

    void flushPage() {
        if (headerWritten_)
            return;
        headerWritten_ = true;
        writeLine(columns_);
        std::string rule;
        for (std::size_t i = 0; i < widths_.size(); ++i)
            rule += (i ? "  " : "") + std::string(widths_[i], '-');
        put(rule + "\n");
        for (const auto& r : page_)
            writeLine(r);
        page_.clear();
    }

    // Numeric columns (and their headings) are right-aligned; a text column in last place is not
    // padded, so lines carry no trailing blanks.
    void writeLine(const std::vector<std::string>& values) {
        std::string line;
        for (std::size_t i = 0; i < values.size(); ++i) {
            const std::size_t width = i < widths_.size() ? widths_[i] : 0;
            const std::size_t pad =
                width > displayWidth(values[i]) ? width - displayWidth(values[i]) : 0;
            const bool last = i + 1 == values.size();
            if (i)
                line += "  ";
            if (i < numeric_.size() && numeric_[i])
                line += std::string(pad, ' ') + values[i];
            else
                line += values[i] + (last ? "" : std::string(pad, ' '));
        }
        put(line + "\n");
    }

    std::vector<std::string> columns_;
    std::vector<std::size_t> widths_;
    std::vector<bool> numeric_;
    std::vector<std::vector<std::string>> page_;
    bool headerWritten_ = false;
    std::uint64_t rows_ = 0;
};

// RFC 4180: CRLF line ends; a field with a comma, quote, CR or LF is quoted and its quotes
// doubled. NULL is an empty field.
class CsvTableWriter final : public WriterBase {
public:
    using WriterBase::WriterBase;

    void begin(const std::vector<std::string>& columns) override {
        std::string line;
        for (std::size_t i = 0; i < columns.size(); ++i)
            appendField(line, columns[i], i);
        put(line + "\r\n");
    }
    void row(const std::vector<Cell>& cells) override {
        std::string line;
        for (std::size_t i = 0; i < cells.size(); ++i)
            appendField(line, cells[i].kind == Cell::Kind::Null ? std::string() : cells[i].value,
                        i);
        put(line + "\r\n");
    }
    void end() override { finish(); }

private:
    static void appendField(std::string& line, const std::string& value, std::size_t index) {
        if (index)
            line += ',';
        if (value.find_first_of(",\"\r\n") == std::string::npos) {
            line += value;
            return;
        }
        line += '"';
        for (char c : value) {
            if (c == '"')
                line += '"';
            line += c;
        }
        line += '"';
    }
};

// A JSON array of objects, one per row, written as rows arrive.
class JsonTableWriter final : public WriterBase {
public:
    using WriterBase::WriterBase;

    void begin(const std::vector<std::string>& columns) override {
        // Object keys must be unique for a JSON reader to keep every column ("SELECT 1, 1").
        std::set<std::string> used;
        for (const auto& c : columns) {
            std::string key = c;
            for (int n = 2; used.count(key); ++n)
                key = fmt::format("{}_{}", c, n);
            used.insert(key);
            keys_.push_back(quote(key));
        }
        put("[");
    }
    void row(const std::vector<Cell>& cells) override {
        std::string line = first_ ? "\n  {" : ",\n  {";
        first_ = false;
        for (std::size_t i = 0; i < cells.size() && i < keys_.size(); ++i) {
            if (i)
                line += ", ";
            line += keys_[i];
            line += ": ";
            switch (cells[i].kind) {
            case Cell::Kind::Null:
                line += "null";
                break;
            case Cell::Kind::Number:
            case Cell::Kind::Json:
                line += cells[i].value;
                break;
            case Cell::Kind::Text:
                line += quote(cells[i].value);
                break;
            }
        }
        put(line + "}");
    }
    void end() override {
        put(first_ ? "]\n" : "\n]\n");
        finish();
    }

private:
    static std::string quote(const std::string& s) {
        // Text from a damaged file may not be UTF-8: replace bad bytes rather than fail.
        return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }

    std::vector<std::string> keys_;
    bool first_ = true;
};

} // namespace

TableFormat parseTableFormat(const std::string& name) {
    if (name == "text")
        return TableFormat::Text;
    if (name == "csv")
        return TableFormat::Csv;
    if (name == "json")
        return TableFormat::Json;
    throw UsageError(fmt::format("unknown format '{}' (use text, csv or json)", name));
}

bool isJsonNumber(std::string_view s) {
    std::size_t i = 0;
    const auto digits = [&] {
        const std::size_t start = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9')
            ++i;
        return i > start;
    };
    if (i < s.size() && s[i] == '-')
        ++i;
    if (i < s.size() && s[i] == '0')
        ++i;
    else if (!digits())
        return false;
    if (i < s.size() && s[i] == '.') {
        ++i;
        if (!digits())
            return false;
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-'))
            ++i;
        if (!digits())
            return false;
    }
    return i == s.size();
}

Cell inferCell(const std::optional<std::string>& value) {
    if (!value)
        return {};
    return {isJsonNumber(*value) ? Cell::Kind::Number : Cell::Kind::Text, *value};
}

std::unique_ptr<TableWriter> makeTableWriter(TableFormat format, std::FILE* out,
                                             std::string outputName) {
    switch (format) {
    case TableFormat::Csv:
        return std::make_unique<CsvTableWriter>(out, std::move(outputName));
    case TableFormat::Json:
        return std::make_unique<JsonTableWriter>(out, std::move(outputName));
    case TableFormat::Text:
        break;
    }
    return std::make_unique<TextTableWriter>(out, std::move(outputName));
}

} // namespace tilescope::cli
