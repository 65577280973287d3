#include "SummaryView.hpp"

#include "CollapsibleSection.hpp"
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
    // Each table in a section that folds to its title; the page remembers which are open.
    const auto section = [this](const QString& key, const QString& title, RecordTableModel& table) {
        auto* box = newRowFittedTableBox(QString(), table, this);
        box->setFlat(true);
        auto* s = new CollapsibleSection(key, title, box);
        sections_.push_back(s);
        return s;
    };
    grid->addWidget(section("system", tr("System"), model_->target()), row, 0, 2, 1, Qt::AlignTop);
    grid->addWidget(section("categories", tr("Memory by category"), model_->categories()), row, 1);
    grid->addWidget(section("regions", tr("Memory by region"), model_->regions()), row + 1, 1);
    row += 2;
    grid->addWidget(section("versions", tr("Versions"), model_->versions()), row, 0, Qt::AlignTop);
    grid->addWidget(section("capacity", tr("Memory capacity"), model_->capacity()), row, 1,
                    Qt::AlignTop);
    ++row;
    grid->addWidget(section("instrumentation", tr("Instrumentation"), model_->instrumentation()),
                    row, 0, Qt::AlignTop);
    grid->addWidget(section("liveness", tr("Liveness"), model_->liveness()), row, 1, Qt::AlignTop);
    ++row;
    grid->addWidget(section("runs", tr("Runs"), model_->runs()), row++, 0, 1, 2);
    grid->addWidget(section("options", tr("Engine options"), model_->engineOptions()), row++, 0, 1,
                    2);
    grid->setRowStretch(row, 1);
    grid->setColumnStretch(0, 2);
    grid->setColumnStretch(1, 3);

    setScrollingPage(*this, page);
    markReady();
}

} // namespace tilescope::gui
