#pragma once

#include "tables/RecordTableModel.hpp"
#include "tilescope/report/ReportComparison.hpp"

#include <optional>

namespace tilescope::gui {

/// A RecordTableModel for compared items: rows carry a match status (its column shows
/// "matched", "added" or "removed" and the whole row is tinted green for added, red for removed
/// items, so the state reads in text and colour), and difference columns are coloured by sign
/// (red for growth, green for shrinkage: more memory or cycles is the regression). Helpers append
/// the usual Source / Target / Diff / Diff % cells of a ComparedValue.
class ComparisonTableModel : public RecordTableModel {
    Q_OBJECT
public:
    /// `statusColumn` < 0: no status column. `deltaColumns` are coloured by the sign of their
    /// value.
    ComparisonTableModel(std::vector<Column> columns, int statusColumn,
                         std::vector<int> deltaColumns, QObject* parent = nullptr);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    /// Columns Source, Target, Diff, Diff % for a value formatted with `format`
    /// (bytesCell, countCell...); `prefix` names the quantity ("Cycles ").
    static std::vector<Column> valueColumns(const QString& prefix,
                                            std::function<QString(const QVariant&)> format);
    /// The four cells of valueColumns: a side missing from its report is an empty cell.
    static void appendValue(Row& row, const report::ComparedValue& value);
    static QString statusText(report::MatchStatus status);
    /// A left-aligned column shown as text.
    static Column textColumn(const QString& header) { return Column{header, {}, false}; }
    static QString signedCell(const QVariant& v, const std::function<QString(double)>& format);

private:
    int statusColumn_;
    std::vector<int> deltaColumns_;
};

} // namespace tilescope::gui
