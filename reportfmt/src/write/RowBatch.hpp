#pragma once
// Buffered bulk appends for the writers' hot paths (run steps, host events, samples).

#include "sqlite/Sqlite.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope::report::detail {

/// Buffers rows of one table and inserts them `rowsPerBatch` at a time through a single
/// multi-row INSERT. SQLite's per-statement cost (step, reset, VDBE start and halt) is then paid
/// once per batch instead of once per row, which makes bulk appends about 1.4x faster. Values are
/// copied in, so callers may reuse their buffers. Rows keep their order; pending rows reach the
/// database only on a full batch or flush(), so a writer must flush before every commit.
class RowBatch {
public:
    RowBatch() = default;
    /// `columns` as in "INSERT INTO table(columns)", `numColumns` of them.
    RowBatch(const sql::Database& db, std::string_view table, std::string_view columns,
             int numColumns, int rowsPerBatch = 256)
        : numColumns_(numColumns), rowsPerBatch_(rowsPerBatch),
          values_(static_cast<std::size_t>(numColumns) * rowsPerBatch) {
        std::string tuple = "(";
        for (int c = 0; c < numColumns; ++c)
            tuple += c ? ",?" : "?";
        tuple += ")";
        std::string sql =
            "INSERT INTO " + std::string(table) + "(" + std::string(columns) + ") VALUES" + tuple;
        single_ = db.prepare(sql);
        for (int r = 1; r < rowsPerBatch; ++r)
            sql += "," + tuple;
        batch_ = db.prepare(sql);
    }

    RowBatch& value(std::int64_t v) {
        set(Value::Int).i = v;
        return *this;
    }
    RowBatch& value(std::uint64_t v) { return value(static_cast<std::int64_t>(v)); }
    RowBatch& value(double v) {
        set(Value::Real).d = v;
        return *this;
    }
    RowBatch& blob(std::string_view bytes) {
        set(Value::Blob).blob.assign(bytes);
        return *this;
    }
    /// The next value as an empty blob to be filled in place (saves a copy of encoded series).
    std::string& blobSlot() {
        std::string& b = set(Value::Blob).blob;
        b.clear();
        return b;
    }
    RowBatch& null() {
        set(Value::Null);
        return *this;
    }

    /// Ends the current row; returns the number of rows written to the database (0 or a batch).
    std::size_t endRow() {
        ++rows_;
        return rows_ == rowsPerBatch_ ? flush() : 0;
    }
    /// Writes the pending rows; returns how many.
    std::size_t flush() {
        const auto n = static_cast<std::size_t>(rows_);
        if (rows_ == rowsPerBatch_) {
            bindRows(batch_, 0, rows_);
            batch_.run();
        } else {
            for (int r = 0; r < rows_; ++r) {
                bindRows(single_, r, 1);
                single_.run();
            }
        }
        rows_ = 0;
        next_ = 0;
        return n;
    }
    std::size_t pending() const { return static_cast<std::size_t>(rows_); }

private:
    struct Value {
        enum Type : std::uint8_t { Int, Real, Blob, Null } type = Null;
        std::int64_t i = 0;
        double d = 0;
        std::string blob;
    };

    Value& set(Value::Type type) {
        Value& v = values_[static_cast<std::size_t>(next_++)];
        v.type = type;
        return v;
    }

    void bindRows(sql::Statement& st, int firstRow, int count) {
        int param = 1;
        for (int k = firstRow * numColumns_; k < (firstRow + count) * numColumns_; ++k, ++param) {
            const Value& v = values_[static_cast<std::size_t>(k)];
            switch (v.type) {
            case Value::Int:
                st.bind(param, v.i);
                break;
            case Value::Real:
                st.bind(param, v.d);
                break;
            case Value::Blob:
                st.bindBlob(param, v.blob);
                break; // lives until after the step
            case Value::Null:
                st.bindNull(param);
                break;
            }
        }
    }

    int numColumns_ = 0;
    int rowsPerBatch_ = 1;
    int rows_ = 0;
    int next_ = 0;
    std::vector<Value> values_;
    sql::Statement single_, batch_;
};

} // namespace tilescope::report::detail
