#include "CompareSummaryView.hpp"

#include "CompareSummaryModel.hpp"
#include "tables/SortableTable.hpp"

#include <QGroupBox>
#include <QLabel>
#include <QVBoxLayout>

namespace tilescope::gui {

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
    column->addWidget(newRowFittedTableBox(tr("Memory"), model_->memory(), this, 1));
    column->addWidget(newRowFittedTableBox(tr("Counts"), model_->counts(), this, 1));
    column->addWidget(
        newRowFittedTableBox(tr("Memory by category"), model_->categories(), this, 1));
    column->addWidget(newRowFittedTableBox(tr("Memory by region"), model_->regions(), this, 1));
    column->addWidget(
        newRowFittedTableBox(tr("Runs (paired by position)"), model_->runs(), this, 1));
    if (model_->targetDifferences().rowCount() > 0)
        column->addWidget(newRowFittedTableBox(tr("Target properties that differ"),
                                               model_->targetDifferences(), this, 1));
    column->addStretch(1);

    setScrollingPage(*this, page);
    markReady();
}

} // namespace tilescope::gui
