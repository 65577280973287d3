// `tilescope-cli operations FILE`: every operation of a profile with its own totals ("self") and
// its totals including the operations nested in it ("inclusive"), as PopVision's Operations view
// shows them (report::OperationRollup: nesting by debug path).

#include "CliErrors.hpp"
#include "Commands.hpp"
#include "ReportOpening.hpp"
#include "TableWriter.hpp"
#include "tilescope/report/OperationRollup.hpp"

#include <string>
#include <vector>

namespace tilescope::cli {
namespace {

Cell number(std::uint64_t v) {
    return {Cell::Kind::Number, std::to_string(v)};
}
Cell text(const std::string& v) {
    return {Cell::Kind::Text, v};
}
Cell optionalNumber(const std::optional<std::uint64_t>& v) {
    return v ? number(*v) : Cell{};
}

void appendTotals(std::vector<Cell>& row, const report::OperationRollup::Totals& t) {
    row.push_back(number(t.steps));
    row.push_back(number(t.cycles));
    row.push_back(number(t.codeBytes));
    row.push_back(number(t.variableBytes));
    row.push_back(optionalNumber(t.flops));
}

} // namespace

int runOperations(const OperationsOptions& options) {
    const TableFormat format = parseTableFormat(options.format);
    report::ReportFile file = openReportFile(options.file);
    if (file.kind() != report::FileKind::Profile)
        throw UsageError(file.path() + " is a host trace; operations are in profile reports");
    const std::string path = file.path();
    // Everything is read before anything is written, so a damaged file gives one error line.
    const report::RolledUpOperations rolled = readingReport(path, [&] {
        const report::ProfileReader reader(std::move(file));
        return report::rollUpOperations(reader);
    });
    const auto& ops = rolled.operations;
    const auto& up = rolled.rollup;
    auto writer = makeTableWriter(format, stdout, "standard output");
    writer->begin({"operation", "debug_path", "layer", "within", "sub_operations", "steps",
                   "cycles", "code_bytes", "memory_bytes", "flops", "steps_inclusive",
                   "cycles_inclusive", "code_bytes_inclusive", "memory_bytes_inclusive",
                   "flops_inclusive"});
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const report::OperationRecord& o = ops[i].operation;
        const int parent = up.parent[i];
        std::vector<Cell> row{
            text(o.name), text(o.debugPath), text(o.layer),
            parent >= 0 ? text(report::OperationRollup::pathOf(ops[std::size_t(parent)].operation))
                        : Cell{},
            number(std::uint64_t(up.descendants[i]))};
        appendTotals(row, up.self[i]);
        appendTotals(row, up.inclusive[i]);
        writer->row(row);
    }
    writer->end();
    return kExitOk;
}

} // namespace tilescope::cli
