// `tilescope-cli sql FILE QUERY`: one read-only SQL statement over a report, for people exploring
// the schema. ReportFile::query enforces read-only (an authorizer refuses writes, ATTACH and
// pragmas that change anything); this command only formats what comes back.

#include "Commands.hpp"
#include "ReportOpening.hpp"
#include "TableWriter.hpp"

#include <cstdio>

namespace tilescope::cli {

int runSql(const SqlOptions& options) {
    const TableFormat format = parseTableFormat(options.format);
    const report::ReportFile file = openReportFile(options.file);
    const auto writer = makeTableWriter(format, stdout, "standard output");
    std::uint64_t rows = 0;
    std::vector<Cell> cells;
    readingReport(file.path(), [&] {
        file.query(
            options.query, [&](const std::vector<std::string>& header) { writer->begin(header); },
            [&](const report::ReportFile::Row& row) {
                if (options.limit && rows >= *options.limit)
                    return false;
                // The query API returns text, so numbers are recognised by their spelling; use
                // typeof() or CAST in the query where a text column holds digits.
                cells.resize(row.size());
                for (std::size_t i = 0; i < row.size(); ++i)
                    cells[i] = inferCell(row[i]);
                writer->row(cells);
                ++rows;
                return true;
            });
    });
    writer->end();
    return kExitOk;
}

} // namespace tilescope::cli
