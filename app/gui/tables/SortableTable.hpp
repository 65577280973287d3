#pragma once

class QGroupBox;
class QObject;
class QString;
class QTableView;
class QWidget;

namespace tilescope::gui {

class RecordTableModel;

/// A read-only table over `model` as the app shows them: sorted by raw values through a
/// QSortFilterProxyModel (the table's model(), owned by `owner`), rows selected whole, alternating
/// colours, no row numbers, and the copy and CSV export actions. Callers add their own sizing.
QTableView* newSortableTable(RecordTableModel& model, QObject* owner);

/// A sortable table in a box titled `title`, its height fitted to its rows (at least
/// `minimumRows`) and without a vertical scroll bar, for a page of tables that scrolls as a whole
/// (see `setScrollingPage`). The last column takes the spare width.
QGroupBox* newRowFittedTableBox(const QString& title, RecordTableModel& model, QObject* owner,
                                int minimumRows = 0);

/// Makes `page` the whole content of `view`, inside a frameless scroll area: the summary pages
/// of row-fitted tables scroll this way instead of table by table.
void setScrollingPage(QWidget& view, QWidget* page);

} // namespace tilescope::gui
