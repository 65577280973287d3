#include "SummaryView.hpp"

#include "SummaryModel.hpp"
#include "tables/SortableTable.hpp"

#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QTableView>
#include <QVBoxLayout>

namespace tilescope::gui {
namespace {

/// A sortable table sized to its rows, so the page scrolls as a whole instead of each table.
QGroupBox* tableBox(const QString& title, RecordTableModel& model, QWidget* owner) {
    auto* table = newSortableTable(model, owner);
    table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->horizontalHeader()->setStretchLastSection(true);
    table->resizeColumnsToContents();
    const int rows = model.rowCount();
    const int height = table->horizontalHeader()->sizeHint().height() +
                       rows * table->verticalHeader()->defaultSectionSize() +
                       2 * table->frameWidth();
    table->setFixedHeight(height);
    auto* box = new QGroupBox(title);
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(table);
    return box;
}

} // namespace

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
    grid->addWidget(tableBox(tr("Target"), model_->target(), this), row, 0, 2, 1, Qt::AlignTop);
    grid->addWidget(tableBox(tr("Memory by category"), model_->categories(), this), row, 1);
    grid->addWidget(tableBox(tr("Memory by region"), model_->regions(), this), row + 1, 1);
    row += 2;
    grid->addWidget(tableBox(tr("Liveness"), model_->liveness(), this), row, 0);
    grid->addWidget(tableBox(tr("Runs"), model_->runs(), this), row, 1);
    ++row;
    grid->addWidget(tableBox(tr("Engine options"), model_->engineOptions(), this), row++, 0, 1, 2);
    grid->setRowStretch(row, 1);
    grid->setColumnStretch(0, 2);
    grid->setColumnStretch(1, 3);

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
