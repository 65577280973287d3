#include "SummaryView.hpp"

#include "SummaryModel.hpp"
#include "tables/SortableTable.hpp"

#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>

namespace tilescope::gui {

SummaryView::SummaryView(std::shared_ptr<ReportSession> session, QWidget* parent)
    : ReportView(std::move(session), parent) {
    model_ = new SummaryModel(sharedSession(), this);

    auto* page = new QWidget;
    auto* grid = new QGridLayout(page);
    int row = 0;
    if (!model_->outOfMemoryMessage().isEmpty()) {
        auto* banner = new QLabel(model_->outOfMemoryMessage());
        banner->setWordWrap(true);
        banner->setObjectName(QStringLiteral("oomBanner"));
        // Red stays red in light and dark palettes; white text reads on it in both.
        banner->setStyleSheet(
            QStringLiteral("QLabel#oomBanner { background: #c62828; color: white;"
                           " padding: 8px; border-radius: 4px; font-weight: bold; }"));
        grid->addWidget(banner, row++, 0, 1, 2);
    }
    auto* headline = new QLabel(model_->headline());
    headline->setWordWrap(true);
    headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    grid->addWidget(headline, row++, 0, 1, 2);
    grid->addWidget(newRowFittedTableBox(tr("Target"), model_->target(), this), row, 0, 2, 1,
                    Qt::AlignTop);
    grid->addWidget(newRowFittedTableBox(tr("Memory by category"), model_->categories(), this), row,
                    1);
    grid->addWidget(newRowFittedTableBox(tr("Memory by region"), model_->regions(), this), row + 1,
                    1);
    row += 2;
    grid->addWidget(newRowFittedTableBox(tr("Liveness"), model_->liveness(), this), row, 0);
    grid->addWidget(newRowFittedTableBox(tr("Runs"), model_->runs(), this), row, 1);
    ++row;
    grid->addWidget(newRowFittedTableBox(tr("Engine options"), model_->engineOptions(), this),
                    row++, 0, 1, 2);
    grid->setRowStretch(row, 1);
    grid->setColumnStretch(0, 2);
    grid->setColumnStretch(1, 3);

    setScrollingPage(*this, page);
    markReady();
}

} // namespace tilescope::gui
