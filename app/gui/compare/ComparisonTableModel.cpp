#include "ComparisonTableModel.hpp"

#include "core/Format.hpp"

#include <QColor>
#include <algorithm>
#include <cmath>

namespace tilescope::gui {
namespace {
const QColor kWorse(0xd6, 0x27, 0x28);
const QColor kBetter(0x2c, 0xa0, 0x2c);
} // namespace

ComparisonTableModel::ComparisonTableModel(std::vector<Column> columns, int statusColumn,
                                           std::vector<int> deltaColumns, QObject* parent)
    : RecordTableModel(std::move(columns), parent), statusColumn_(statusColumn),
      deltaColumns_(std::move(deltaColumns)) {}

QString ComparisonTableModel::statusText(report::MatchStatus status) {
    switch (status) {
    case report::MatchStatus::Added:
        return tr("+ added");
    case report::MatchStatus::Removed:
        return tr("− removed");
    case report::MatchStatus::Matched:
        break;
    }
    return tr("matched");
}

QString ComparisonTableModel::signedCell(const QVariant& v,
                                         const std::function<QString(double)>& format) {
    if (!v.isValid())
        return {};
    const double d = v.toDouble();
    if (d == 0)
        return format(0);
    return (d > 0 ? QStringLiteral("+") : QStringLiteral("−")) + format(std::abs(d));
}

std::vector<RecordTableModel::Column>
ComparisonTableModel::valueColumns(const QString& prefix,
                                   std::function<QString(const QVariant&)> format) {
    auto diff = [format](const QVariant& v) {
        return signedCell(v, [&](double d) {
            return format(QVariant::fromValue<qulonglong>(qulonglong(std::llround(d))));
        });
    };
    auto percent = [](const QVariant& v) {
        return signedCell(v,
                          [](double d) { return QString::number(d, 'f', 2) + QLatin1Char('%'); });
    };
    return {{prefix + tr("Source"), format, true},
            {prefix + tr("Target"), format, true},
            {prefix + tr("Diff"), diff, true},
            {prefix + tr("Diff %"), percent, true}};
}

void ComparisonTableModel::appendValue(Row& row, const report::ComparedValue& value) {
    row.push_back(value.inSource ? u64(value.source) : QVariant());
    row.push_back(value.inTarget ? u64(value.target) : QVariant());
    row.push_back(QVariant::fromValue<qlonglong>(value.difference()));
    const auto percent = value.percentChange();
    row.push_back(percent ? QVariant(*percent) : QVariant());
}

QVariant ComparisonTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    if (role == Qt::BackgroundRole && statusColumn_ >= 0) {
        const QString status = value(index.row(), statusColumn_).toString();
        if (status == statusText(report::MatchStatus::Added))
            return QColor(kBetter.red(), kBetter.green(), kBetter.blue(), 48);
        if (status == statusText(report::MatchStatus::Removed))
            return QColor(kWorse.red(), kWorse.green(), kWorse.blue(), 48);
    }
    if (role == Qt::ForegroundRole && std::find(deltaColumns_.begin(), deltaColumns_.end(),
                                                index.column()) != deltaColumns_.end()) {
        const QVariant v = value(index.row(), index.column());
        if (v.isValid() && v.toDouble() > 0)
            return kWorse;
        if (v.isValid() && v.toDouble() < 0)
            return kBetter;
    }
    return RecordTableModel::data(index, role);
}

} // namespace tilescope::gui
