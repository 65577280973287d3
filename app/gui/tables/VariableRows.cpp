#include "VariableRows.hpp"

#include <QCoreApplication>

namespace tilescope::gui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("VariableRows", text);
}

QVariant optionalStep(const std::optional<std::int64_t>& step) {
    return step ? QVariant::fromValue<qlonglong>(*step) : QVariant();
}

} // namespace

std::vector<RecordTableModel::Column> variableColumns() {
    return {{tr("Variable"), {}, false},
            {tr("Type"), {}, false},
            {tr("Elements"), RecordTableModel::countCell, true},
            {tr("Bytes"), RecordTableModel::bytesCell, true},
            {tr("Category"), {}, false},
            {tr("Always-live"), {}, false},
            {tr("First step"), RecordTableModel::countCell, true},
            {tr("Last step"), RecordTableModel::countCell, true}};
}

RecordTableModel::Row variableRow(const report::VariableRecord& v,
                                  const std::map<std::int64_t, QString>& labels) {
    const auto label = labels.find(v.categoryId);
    return {QString::fromStdString(v.name),
            QString::fromStdString(v.elementType),
            QVariant::fromValue<qlonglong>(qlonglong(v.numElements)),
            RecordTableModel::u64(v.bytes),
            label != labels.end() ? label->second : QString::number(v.categoryId),
            v.alwaysLive ? tr("yes") : tr("no"),
            v.alwaysLive ? QVariant() : optionalStep(v.firstStep),
            v.alwaysLive ? QVariant() : optionalStep(v.lastStep)};
}

std::map<std::int64_t, QString>
categoryLabels(const std::vector<report::MemoryCategory>& categories) {
    std::map<std::int64_t, QString> out;
    for (const auto& c : categories)
        out[c.id] = QString::fromStdString(c.label);
    return out;
}

} // namespace tilescope::gui
