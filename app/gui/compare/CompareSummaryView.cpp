#include "CompareSummaryView.hpp"

#include "CompareSummaryModel.hpp"
#include "tables/SortableTable.hpp"

#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QTableView>
#include <QVBoxLayout>

namespace tilescope::gui {
namespace {

/// A sortable table sized to its rows, so the page scrolls as a whole.
QGroupBox* tableBox(const QString& title, RecordTableModel& model, QWidget* owner) {
    auto* table = newSortableTable(model, owner);
    table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->horizontalHeader()->setStretchLastSection(true);
    table->resizeColumnsToContents();
    const int height =
        table->horizontalHeader()->sizeHint().height() +
        std::max(1, model.rowCount()) * table->verticalHeader()->defaultSectionSize() +
        2 * table->frameWidth();
    table->setFixedHeight(height);
    auto* box = new QGroupBox(title);
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(table);
    return box;
}

} // namespace

CompareSummaryView::CompareSummaryView(std::shared_ptr<CompareSession> session, QWidget* parent)
    : CompareView(std::move(session), parent) {
    model_ = new CompareSummaryModel(sharedSession(), this);
    auto* page = new QWidget;
    auto* column = new QVBoxLayout(page);
    for (const QString& text : {model_->sourceHeadline(), model_->targetHeadline()}) {
        auto* label = new QLabel(text);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        column->addWidget(label);
    }
    column->addWidget(tableBox(tr("Memory"), model_->memory(), this));
    column->addWidget(tableBox(tr("Counts"), model_->counts(), this));
    column->addWidget(tableBox(tr("Memory by category"), model_->categories(), this));
    column->addWidget(tableBox(tr("Memory by region"), model_->regions(), this));
    column->addWidget(tableBox(tr("Runs (paired by position)"), model_->runs(), this));
    if (model_->targetDifferences().rowCount() > 0)
        column->addWidget(
            tableBox(tr("Target properties that differ"), model_->targetDifferences(), this));
    column->addStretch(1);

    auto* scroll = new QScrollArea;
    scroll->setWidget(page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
    markReady();
}

} // namespace tilescope::gui
