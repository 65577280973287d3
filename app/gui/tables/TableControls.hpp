#pragma once

#include <QString>

class QLineEdit;
class QTableView;
class QToolButton;

namespace tilescope::gui {

/// A filter box for a table made by newSortableTable: typing keeps the rows where any column's
/// text contains the typed text (case-insensitive). The box is not added to a layout.
QLineEdit* newTableFilter(QTableView* table, const QString& placeholder);
/// A "Columns" button whose menu shows and hides the table's columns; the menu is built from the
/// headers each time it opens, so it follows models whose columns change.
QToolButton* newColumnPicker(QTableView* table);

} // namespace tilescope::gui
