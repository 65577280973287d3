#include "ExecutionView.hpp"

#include "ExecutionCanvas.hpp"
#include "ExecutionModel.hpp"
#include "Format.hpp"
#include "ReportSession.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace tilescope::gui {

ExecutionView::ExecutionView(std::shared_ptr<ReportSession> session, QWidget* parent)
    : ReportView(std::move(session), parent) {
    model_ = new ExecutionModel(sharedSession(), this);
    canvas_ = new ExecutionCanvas(*model_);
    runs_ = new QComboBox;
    runs_->setToolTip(tr("Engine run to show"));
    runs_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    totals_ = new QLabel;
    totals_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Run:")));
    top->addWidget(runs_);
    top->addWidget(totals_, 1);
    auto* hint = new QLabel(tr("Share of each pixel's cycles by phase. Wheel or W/S to zoom, drag "
                               "or A/D to pan, Home to reset; zoomed in, hover a step for its "
                               "details and click it to select it in the other views."));
    hint->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(hint);
    layout->addWidget(canvas_, 1);

    connect(model_, &ExecutionModel::loadedChanged, this, [this] {
        const double clock = this->session().target().clockHz;
        const QSignalBlocker block(runs_);
        for (const auto& r : model_->runs())
            runs_->addItem(tr("Run %1 (engine program %2): %3")
                               .arg(r.id)
                               .arg(r.programIndex)
                               .arg(formatCycles(r.totalCycles, clock)));
        if (model_->runs().empty()) {
            totals_->setText(tr("No runs in this report."));
            markReady();
        }
    });
    connect(model_, &ExecutionModel::runChanged, this, &ExecutionView::showTotals);
    connect(model_, &ExecutionModel::windowChanged, this, [this] { markReady(); });
    connect(model_, &ExecutionModel::failed, this, &ReportView::failed);
    connect(runs_, &QComboBox::currentIndexChanged, model_, &ExecutionModel::setCurrentRun);
    connect(canvas_, &ExecutionCanvas::stepClicked, this,
            [this](std::int64_t step) { this->session().state().selectedStep = step; });
    model_->load();
}

void ExecutionView::showTotals() {
    const auto* run = model_->run();
    if (!run)
        return;
    const auto& cycles = model_->phaseCycles();
    std::uint64_t sum = 0;
    for (auto c : cycles)
        sum += c;
    QStringList parts;
    for (int p = 0; p < ExecutionModel::PhaseCount; ++p)
        parts << QStringLiteral("%1 %2").arg(
            ExecutionModel::phaseName(p),
            formatPercent(sum ? double(cycles[std::size_t(p)]) / double(sum) : 0));
    totals_->setText(
        tr("%1 steps · %2").arg(formatCount(std::int64_t(run->numSteps)), parts.join(", ")));
}

} // namespace tilescope::gui
