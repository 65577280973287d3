#include "SortableTable.hpp"

#include "RecordTableModel.hpp"
#include "TableExport.hpp"

#include <QGroupBox>
#include <QHeaderView>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

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

QGroupBox* newRowFittedTableBox(const QString& title, RecordTableModel& model, QObject* owner,
                                int minimumRows) {
    auto* table = newSortableTable(model, owner);
    table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->horizontalHeader()->setStretchLastSection(true);
    table->resizeColumnsToContents();
    const int rows = std::max(minimumRows, model.rowCount());
    table->setFixedHeight(table->horizontalHeader()->sizeHint().height() +
                          rows * table->verticalHeader()->defaultSectionSize() +
                          2 * table->frameWidth());
    auto* box = new QGroupBox(title);
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(table);
    return box;
}

void setScrollingPage(QWidget& view, QWidget* page) {
    auto* scroll = new QScrollArea;
    scroll->setWidget(page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* layout = new QVBoxLayout(&view);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
}

} // namespace tilescope::gui
