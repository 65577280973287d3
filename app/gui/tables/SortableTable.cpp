#include "SortableTable.hpp"

#include "RecordTableModel.hpp"
#include "TableExport.hpp"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>

namespace tilescope::gui {

QTableView* newSortableTable(RecordTableModel& model, QObject* owner) {
    auto* proxy = new QSortFilterProxyModel(owner);
    proxy->setSourceModel(&model);
    proxy->setSortRole(Qt::UserRole);
    auto* table = new QTableView;
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->sortByColumn(-1, Qt::AscendingOrder); // the model's own order until a header is clicked
    table->verticalHeader()->hide();
    table->setAlternatingRowColors(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    addTableActions(table);
    return table;
}

} // namespace tilescope::gui
