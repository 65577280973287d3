#include "OperationsModel.hpp"

#include "OperationRollup.hpp"
#include "core/Background.hpp"
#include "core/ReportSession.hpp"
#include "tables/VariableRows.hpp"

#include <algorithm>

namespace tilescope::gui {
namespace {

struct LoadedList {
    std::vector<RecordTableModel::Row> rows;
    std::vector<std::int64_t> ids;
    std::vector<int> parents;
    bool hasFlops = false;
};

struct LoadedOperation {
    std::vector<RecordTableModel::Row> steps, variables;
    std::vector<std::pair<std::int64_t, std::int64_t>> stepIds;
    std::vector<TileSelection> variableTiles;
};

/// The tiles where `perTile` is non-zero, as ranges.
TileSelection nonZeroTiles(const report::PerTile& perTile) {
    TileSelection out;
    for (std::uint32_t t = 0; t < perTile.size();) {
        if (perTile[t] == 0) {
            ++t;
            continue;
        }
        std::uint32_t last = t;
        while (last + 1 < perTile.size() && perTile[last + 1] != 0)
            ++last;
        out.add({t, last});
        t = last + 1;
    }
    return out;
}

} // namespace

OperationsModel::OperationsModel(std::shared_ptr<ReportSession> session, QObject* parent)
    : QObject(parent), session_(std::move(session)),
      operations_({{tr("Operation"), {}, false},
                   {tr("Debug path"), {}, false},
                   {tr("Layer"), {}, false},
                   {tr("Steps"), RecordTableModel::countCell, true},
                   {tr("Cycles"), RecordTableModel::countCell, true},
                   {tr("Code"), RecordTableModel::bytesCell, true},
                   {tr("Memory"), RecordTableModel::bytesCell, true},
                   {tr("FLOPs"), RecordTableModel::countCell, true},
                   {tr("Within"), {}, false},
                   {tr("Sub-ops"), RecordTableModel::countCell, true},
                   {tr("Steps (incl.)"), RecordTableModel::countCell, true},
                   {tr("Cycles (incl.)"), RecordTableModel::countCell, true},
                   {tr("Code (incl.)"), RecordTableModel::bytesCell, true},
                   {tr("Memory (incl.)"), RecordTableModel::bytesCell, true},
                   {tr("FLOPs (incl.)"), RecordTableModel::countCell, true}}),
      steps_({{tr("Step"), RecordTableModel::countCell, true},
              {tr("Program"), {}, false},
              {tr("Kind"), {}, false},
              {tr("Phase"), {}, false},
              {tr("Cycles"), RecordTableModel::countCell, true},
              {tr("Exchanged"), RecordTableModel::bytesCell, true}}),
      variables_(variableColumns()) {}

void OperationsModel::load() {
    auto session = session_;
    runInBackground<LoadedList>(
        this,
        [session] {
            return session->read([](const report::ProfileReader& reader) {
                LoadedList out;
                const report::RolledUpOperations rolled = report::rollUpOperations(reader);
                const auto& totals = rolled.operations;
                const OperationRollup& rollup = rolled.rollup;
                for (std::size_t i = 0; i < totals.size(); ++i) {
                    const report::OperationTotals& t = totals[i];
                    const report::OperationRecord& o = t.operation;
                    const OperationRollup::Totals& in = rollup.inclusive[i];
                    const int parent = rollup.parent[i];
                    out.hasFlops = out.hasFlops || o.flops.has_value();
                    out.ids.push_back(o.id);
                    out.parents.push_back(parent);
                    out.rows.push_back(
                        {QString::fromStdString(o.name), QString::fromStdString(o.debugPath),
                         QString::fromStdString(o.layer), RecordTableModel::u64(t.steps),
                         RecordTableModel::u64(t.estimatedCycles),
                         RecordTableModel::u64(t.codeBytes), RecordTableModel::u64(t.variableBytes),
                         o.flops ? RecordTableModel::u64(*o.flops) : QVariant(),
                         parent >= 0 ? QString::fromStdString(OperationRollup::pathOf(
                                           totals[std::size_t(parent)].operation))
                                     : QString(),
                         RecordTableModel::u64(std::uint64_t(rollup.descendants[i])),
                         RecordTableModel::u64(in.steps), RecordTableModel::u64(in.cycles),
                         RecordTableModel::u64(in.codeBytes),
                         RecordTableModel::u64(in.variableBytes),
                         in.flops ? RecordTableModel::u64(*in.flops) : QVariant()});
                }
                return out;
            });
        },
        [this](LoadedList list) {
            operationIds_ = std::move(list.ids);
            parents_ = std::move(list.parents);
            hasFlops_ = list.hasFlops;
            operations_.setRows(std::move(list.rows));
            loaded_ = true;
            emit loadedChanged();
        },
        [this](const QString& message) { emit failed(message); });
}

std::int64_t OperationsModel::operationIdAt(int row) const {
    return row >= 0 && std::size_t(row) < operationIds_.size() ? operationIds_[std::size_t(row)]
                                                               : -1;
}

std::int64_t OperationsModel::stepIdAt(int row) const {
    return row >= 0 && std::size_t(row) < stepIds_.size() ? stepIds_[std::size_t(row)].first : -1;
}

std::int64_t OperationsModel::stepProgramAt(int row) const {
    return row >= 0 && std::size_t(row) < stepIds_.size() ? stepIds_[std::size_t(row)].second : -1;
}

TileSelection OperationsModel::variableTilesAt(int row) const {
    return row >= 0 && std::size_t(row) < variableTiles_.size() ? variableTiles_[std::size_t(row)]
                                                                : TileSelection();
}

std::vector<std::int64_t> OperationsModel::operationWithDescendants(int row) const {
    std::vector<std::int64_t> out;
    if (row < 0 || std::size_t(row) >= operationIds_.size())
        return out;
    out.push_back(operationIds_[std::size_t(row)]);
    // A row's ancestors come before it in id order only by convention, so walk each row up.
    for (std::size_t r = 0; r < parents_.size(); ++r)
        for (int p = parents_[r]; p >= 0; p = parents_[std::size_t(p)])
            if (p == row) {
                out.push_back(operationIds_[r]);
                break;
            }
    return out;
}

void OperationsModel::setInclusive(bool inclusive) {
    if (inclusive_ == inclusive)
        return;
    inclusive_ = inclusive;
    if (selected_)
        selectOperation(*selected_);
}

void OperationsModel::selectOperation(std::int64_t operationId) {
    selected_ = operationId;
    std::vector<std::int64_t> ids{operationId};
    if (inclusive_) {
        const auto row = std::find(operationIds_.begin(), operationIds_.end(), operationId);
        if (row != operationIds_.end())
            ids = operationWithDescendants(int(row - operationIds_.begin()));
    }
    auto session = session_;
    operationLoad_.start<LoadedOperation>(
        this,
        [session, ids] {
            return session->read([&](const report::ProfileReader& reader) {
                LoadedOperation out;
                std::vector<report::NamedStep> steps;
                std::vector<report::VariableRecord> variables;
                for (const std::int64_t id : ids) {
                    for (report::NamedStep& n : reader.operationSteps(id))
                        steps.push_back(std::move(n));
                    for (report::VariableRecord& v : reader.operationVariables(id, true))
                        variables.push_back(std::move(v));
                }
                // One list as for a single operation: steps in order, variables largest first.
                std::stable_sort(steps.begin(), steps.end(), [](const auto& a, const auto& b) {
                    return a.step.id < b.step.id;
                });
                std::stable_sort(variables.begin(), variables.end(),
                                 [](const auto& a, const auto& b) { return a.bytes > b.bytes; });
                for (const report::NamedStep& n : steps) {
                    const report::StepRecord& s = n.step;
                    out.stepIds.emplace_back(s.id, s.programId);
                    out.steps.push_back(
                        {QVariant::fromValue<qlonglong>(s.id), QString::fromStdString(n.program),
                         QString::fromStdString(s.kind), QString::fromStdString(s.phase),
                         RecordTableModel::u64(s.estimatedCycles),
                         RecordTableModel::u64(s.exchangeBytes)});
                }
                const auto labels = categoryLabels(reader.memoryCategories());
                for (const report::VariableRecord& v : variables) {
                    out.variables.push_back(variableRow(v, labels));
                    out.variableTiles.push_back(nonZeroTiles(v.perTile));
                }
                return out;
            });
        },
        [this](LoadedOperation loaded) {
            stepIds_ = std::move(loaded.stepIds);
            variableTiles_ = std::move(loaded.variableTiles);
            steps_.setRows(std::move(loaded.steps));
            variables_.setRows(std::move(loaded.variables));
            emit operationLoaded();
        },
        [this](const QString& message) {
            stepIds_.clear();
            variableTiles_.clear();
            steps_.setRows({});
            variables_.setRows({});
            emit failed(message);
        });
}

} // namespace tilescope::gui
