#include "StepCompareView.hpp"

#include "CompareSeriesCanvas.hpp"
#include "StepCompareModel.hpp"
#include "canvas/CanvasLink.hpp"
#include "core/Format.hpp"
#include "tables/SortableTable.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <cmath>

namespace tilescope::gui {

StepCompareView::StepCompareView(std::shared_ptr<CompareSession> session, bool execution,
                                 QWidget* parent)
    : CompareView(std::move(session), parent) {
    using Kind = StepCompareModel::Kind;
    model_ =
        new StepCompareModel(sharedSession(), execution ? Kind::Execution : Kind::Liveness, this);
    const QString title = execution ? tr("Execution trace, first run of each report")
                                    : tr("Not-always-live memory per program step");
    caption_ = new QLabel(tr("<b>%1</b> — aligning steps by identity…").arg(title));
    caption_->setWordWrap(true);
    auto* busy = new QProgressBar;
    busy->setRange(0, 0);
    busy->setMaximumWidth(240);

    steps_ = new CompareSeriesCanvas(execution ? CompareSeriesCanvas::Mode::Lanes
                                               : CompareSeriesCanvas::Mode::Overlay);
    difference_ = new CompareSeriesCanvas(CompareSeriesCanvas::Mode::Difference);
    for (CompareSeriesCanvas* c : {steps_, difference_}) {
        if (execution)
            c->setValueFormat([](double v) { return formatCount(std::llround(v)); }, false);
        else
            c->setValueFormat([](double v) { return formatBytes(v); }, true);
        c->setPointLabel([this](std::size_t i) { return model_->pointLabel(i); });
        c->setMessage(tr("Aligning the steps of both reports…"));
    }
    linkWindows({steps_, difference_});

    QTableView* table = newSortableTable(*model_, this);
    table->horizontalHeader()->setStretchLastSection(true);
    auto* tableBox = new QWidget;
    auto* tableLayout = new QVBoxLayout(tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(new QLabel(
        execution ? tr("Largest regressions first (top %1 steps)").arg(StepCompareModel::kRows)
                  : tr("Largest increases first (top %1 steps)").arg(StepCompareModel::kRows)));
    tableLayout->addWidget(table);

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(steps_);
    split->addWidget(difference_);
    split->addWidget(tableBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 3);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(caption_);
    layout->addWidget(busy);
    layout->addWidget(split, 1);

    connect(model_, &StepCompareModel::loaded, this, [this, busy, title, table] {
        busy->hide();
        caption_->setText(QStringLiteral("<b>%1</b> — %2").arg(title, model_->summaryText()));
        steps_->setSeries(model_->series());
        difference_->setSeries(model_->series());
        table->resizeColumnsToContents();
        markReady();
    });
    connect(model_, &StepCompareModel::failed, this, [this, busy, title](const QString& m) {
        busy->hide();
        caption_->setText(tr("<b>%1</b> — cannot compare: %2").arg(title, m.toHtmlEscaped()));
        steps_->setMessage(m);
        difference_->setMessage(m);
        emit failed(m);
    });
}

} // namespace tilescope::gui
