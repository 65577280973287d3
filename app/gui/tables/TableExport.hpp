#pragma once

#include <QString>

class QAbstractItemModel;
class QTableView;

namespace tilescope::gui {

/// The table as RFC 4180 CSV (CRLF line ends, fields quoted when they contain a comma, quote or
/// line break), in the model's current row order: given a view's proxy model, the export keeps
/// the user's filter and sort. Cells are the display text; `rawNumbers` writes Qt::UserRole
/// values instead where they are numbers (bytes as 123456, not "121 KiB").
QString tableToCsv(const QAbstractItemModel& model, bool rawNumbers = true);
/// Selected rows (or every row when nothing is selected) as tab-separated display text with a
/// header line, as spreadsheets paste it.
QString selectionToTsv(const QTableView& view);
/// Gives a table Ctrl+C (copy) and a context menu with Copy and Export CSV….
void addTableActions(QTableView* view);

} // namespace tilescope::gui
