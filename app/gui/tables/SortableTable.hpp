#pragma once

class QObject;
class QTableView;

namespace tilescope::gui {

class RecordTableModel;

/// A read-only table over `model` as the app shows them: sorted by raw values through a proxy
/// (owned by `owner`), rows selected whole, alternating colours, no row numbers, and the copy and
/// CSV export actions. Callers add their own sizing.
QTableView* newSortableTable(RecordTableModel& model, QObject* owner);

} // namespace tilescope::gui
