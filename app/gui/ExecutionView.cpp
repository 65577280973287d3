#include "ExecutionView.hpp"

#include "ExecutionCanvas.hpp"
#include "ExecutionModel.hpp"
#include "Format.hpp"
#include "ReportSession.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace tilescope::gui {

ExecutionView::ExecutionView(std::shared_ptr<ReportSession> session, QWidget* parent)
    : ReportView(std::move(session), parent) {
    model_ = new ExecutionModel(sharedSession(), this);
    canvas_ = new ExecutionCanvas(*model_);
    runs_ = new QComboBox;
    runs_->setToolTip(tr("Engine run to show"));
    runs_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    mode_ = new QComboBox;
    mode_->addItems({tr("Flat: phase shares"), tr("Flame: by program"), tr("BSP: per tile")});
    mode_->setToolTip(tr("Flat: share of each pixel's cycles by phase. Flame: the programs each "
                         "step runs under, root on top. BSP: for a range of tiles, each tile's "
                         "own cycles of every step, then its wait at the sync."));
    const auto tiles = int(this->session().target().numTiles());
    firstTile_ = new QSpinBox;
    firstTile_->setRange(0, std::max(0, tiles - 1));
    firstTile_->setPrefix(tr("from tile "));
    firstTile_->setToolTip(tr("First tile of the BSP bands (global tile number)"));
    tileCount_ = new QSpinBox;
    tileCount_->setRange(1, int(ExecutionModel::kMaxBspTiles));
    tileCount_->setValue(int(model_->tileCount()));
    tileCount_->setSuffix(tr(" tiles"));
    tileCount_->setToolTip(tr("How many tiles the BSP bands show"));
    firstTile_->setEnabled(false);
    tileCount_->setEnabled(false);
    totals_ = new QLabel;
    totals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    totals_->setWordWrap(true);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Run:")));
    top->addWidget(runs_);
    top->addWidget(new QLabel(tr("Chart:")));
    top->addWidget(mode_);
    top->addWidget(firstTile_);
    top->addWidget(tileCount_);
    top->addStretch(1);
    auto* hint = new QLabel(tr("Share of each pixel's cycles by phase. Wheel or W/S to zoom, drag "
                               "or A/D to pan, Home to reset; zoomed in, hover a step for its "
                               "details and click it to select it in the other views."));
    hint->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(totals_);
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
    connect(mode_, &QComboBox::currentIndexChanged, this, [this](int index) {
        model_->setMode(ExecutionModel::Mode(index));
        firstTile_->setEnabled(index == ExecutionModel::Bsp);
        tileCount_->setEnabled(index == ExecutionModel::Bsp);
    });
    auto tilesChanged = [this] {
        model_->setTileRange(std::uint32_t(firstTile_->value()),
                             std::uint32_t(tileCount_->value()));
    };
    connect(firstTile_, &QSpinBox::valueChanged, this, tilesChanged);
    connect(tileCount_, &QSpinBox::valueChanged, this, tilesChanged);
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
    const RunFigures& f = model_->figures();
    totals_->setText(
        tr("%1 steps, %2 cycles (%3) · parallel efficiency %4 · %5 · compute tile "
           "balance %6 · stream copies %7, exchanges %8")
            .arg(formatCount(std::int64_t(run->numSteps)), formatCount(std::int64_t(f.totalCycles)),
                 formatCycles(f.totalCycles, session().target().clockHz),
                 formatPercent(f.parallelEfficiency), parts.join(", "),
                 formatPercent(f.computeTileBalance), formatBytes(double(f.streamCopyBytes)),
                 formatBytes(double(f.exchangeBytes))));
}

QString ExecutionView::summaryText() const {
    return totals_->text();
}

} // namespace tilescope::gui
