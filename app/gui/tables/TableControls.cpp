#include "TableControls.hpp"

#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>

namespace tilescope::gui {

QLineEdit* newTableFilter(QTableView* table, const QString& placeholder) {
    auto* box = new QLineEdit;
    box->setPlaceholderText(placeholder);
    box->setClearButtonEnabled(true);
    if (auto* proxy = qobject_cast<QSortFilterProxyModel*>(table->model())) {
        proxy->setFilterKeyColumn(-1); // any column
        proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
        QObject::connect(box, &QLineEdit::textChanged, proxy,
                         &QSortFilterProxyModel::setFilterFixedString);
    }
    return box;
}

QToolButton* newColumnPicker(QTableView* table) {
    auto* button = new QToolButton;
    button->setText(QToolButton::tr("Columns"));
    button->setToolTip(QToolButton::tr("Show or hide columns"));
    button->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(button);
    button->setMenu(menu);
    QObject::connect(menu, &QMenu::aboutToShow, table, [menu, table] {
        menu->clear();
        const QAbstractItemModel* model = table->model();
        for (int c = 0; c < model->columnCount(); ++c) {
            QAction* a = menu->addAction(model->headerData(c, Qt::Horizontal).toString());
            a->setCheckable(true);
            a->setChecked(!table->isColumnHidden(c));
            QObject::connect(a, &QAction::toggled, table,
                             [table, c](bool on) { table->setColumnHidden(c, !on); });
        }
    });
    return button;
}

} // namespace tilescope::gui
