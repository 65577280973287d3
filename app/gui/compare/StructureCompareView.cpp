#include "StructureCompareView.hpp"

#include "StructureTableModel.hpp"
#include "tables/SortableTable.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QTableView>
#include <QVBoxLayout>

namespace tilescope::gui {

StructureCompareView::StructureCompareView(std::shared_ptr<CompareSession> session,
                                           StructureTableModel* model, const QString& title,
                                           int sortColumn, QWidget* parent)
    : CompareView(std::move(session), parent), model_(model) {
    model_->setParent(this);
    caption_ = new QLabel(tr("<b>%1</b> — comparing…").arg(title));
    caption_->setWordWrap(true);
    auto* busy = new QProgressBar;
    busy->setRange(0, 0); // the library reports no fraction: an indeterminate bar
    busy->setMaximumWidth(240);
    table_ = newSortableTable(*model_, this);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(caption_);
    layout->addWidget(busy);
    layout->addWidget(table_, 1);
    connect(model_, &StructureTableModel::loaded, this, [this, busy, title, sortColumn] {
        busy->hide();
        caption_->setText(QStringLiteral("<b>%1</b> — %2").arg(title, model_->summaryText()));
        table_->resizeColumnsToContents();
        if (sortColumn >= 0)
            table_->sortByColumn(sortColumn, Qt::DescendingOrder);
        markReady();
    });
    connect(model_, &StructureTableModel::failed, this, [this, busy, title](const QString& m) {
        busy->hide();
        caption_->setText(tr("<b>%1</b> — cannot compare: %2").arg(title, m.toHtmlEscaped()));
        emit failed(m);
    });
}

} // namespace tilescope::gui
