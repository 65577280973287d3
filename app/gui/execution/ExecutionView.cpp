#include "ExecutionView.hpp"

#include "ExecutionCanvas.hpp"
#include "ExecutionModel.hpp"
#include "ExecutionRange.hpp"
#include "core/Background.hpp"
#include "core/DebugInfoPane.hpp"
#include "core/Format.hpp"
#include "core/ReportSession.hpp"
#include "tables/RecordTableModel.hpp"
#include "tables/SortableTable.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <iterator>

namespace tilescope::gui {

ExecutionView::ExecutionView(std::shared_ptr<ReportSession> session, QWidget* parent)
    : ReportView(std::move(session), parent) {
    model_ = new ExecutionModel(sharedSession(), this);
    canvas_ = new ExecutionCanvas(*model_);
    runs_ = new QComboBox;
    runs_->setToolTip(tr("Engine run to show"));
    runs_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    mode_ = new QComboBox;
    mode_->addItems({tr("Flat: phase shares"), tr("Flame: by program"), tr("BSP: per tile"),
                     tr("Per IPU: busy cycles"), tr("Blocks: lightweight profiling")});
    mode_->setToolTip(
        tr("Flat: share of each pixel's cycles by phase. Flame: the programs each "
           "step runs under, root on top. BSP: for a range of tiles, each tile's "
           "own cycles of every step, then its wait at the sync. Per IPU: each "
           "IPU's own cycles of every step, then its wait for the slowest IPU. Blocks: "
           "every recorded execution of the selected blocks and stream copies, a "
           "band per recording tile, nested blocks stacked."));
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
    filter_ = new QLineEdit;
    filter_->setPlaceholderText(tr("Filter steps by program name or step kind"));
    filter_->setClearButtonEnabled(true);
    filter_->setToolTip(tr("Steps whose program name or step kind contains this text (case "
                           "ignored) and whose phase is ticked keep their colour; the others are "
                           "dimmed in the flat, BSP and per-IPU charts (not in the flame chart)."));
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(new QLabel(tr("Steps:")));
    filterRow->addWidget(filter_, 1);
    for (int p = 0; p < ExecutionModel::PhaseCount; ++p) {
        phaseBoxes_[p] = new QCheckBox(ExecutionModel::phaseName(p));
        phaseBoxes_[p]->setChecked(true);
        filterRow->addWidget(phaseBoxes_[p]);
        connect(phaseBoxes_[p], &QCheckBox::toggled, this, &ExecutionView::applyFilter);
    }
    filterFigures_ = new QLabel;
    filterFigures_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    filterFigures_->setWordWrap(true);
    filterFigures_->hide();
    filterTyping_ = new QTimer(this);
    filterTyping_->setSingleShot(true);
    filterTyping_->setInterval(250);
    connect(filterTyping_, &QTimer::timeout, this, &ExecutionView::applyFilter);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Run:")));
    top->addWidget(runs_);
    top->addWidget(new QLabel(tr("Chart:")));
    top->addWidget(mode_);
    top->addWidget(firstTile_);
    top->addWidget(tileCount_);
    top->addStretch(1);
    hint_ = new QLabel;
    hint_->setWordWrap(true);
    canvas_->setRangeSelectable(true);
    rangeSummary_ = new QLabel;
    rangeSummary_->setWordWrap(true);
    rangeSummary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    rangePrograms_ =
        new RecordTableModel({{tr("Program"), {}, false},
                              {tr("Cycles in range"), RecordTableModel::countCell, true},
                              {tr("Share"), RecordTableModel::percentCell, true},
                              {tr("Steps"), RecordTableModel::countCell, true}},
                             this);
    auto* rangeTable = newSortableTable(*rangePrograms_, this);
    rangeTable->horizontalHeader()->setStretchLastSection(true);
    rangeBox_ = new QGroupBox(tr("Selected range: summary and details by program"));
    auto* rangeLayout = new QVBoxLayout(rangeBox_);
    rangeLayout->addWidget(rangeSummary_);
    rangeLayout->addWidget(rangeTable, 1);
    rangeBox_->hide();
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(totals_);
    layout->addLayout(filterRow);
    layout->addWidget(filterFigures_);
    layout->addWidget(hint_);
    debugInfo_ = new DebugInfoPane(sharedSession());
    auto* canvasAndDebugInfo = new QSplitter(Qt::Horizontal);
    canvasAndDebugInfo->addWidget(canvas_);
    canvasAndDebugInfo->addWidget(debugInfo_);
    canvasAndDebugInfo->setStretchFactor(0, 4);
    canvasAndDebugInfo->setStretchFactor(1, 1);
    auto* chartAndRange = new QSplitter(Qt::Vertical);
    chartAndRange->addWidget(canvasAndDebugInfo);
    chartAndRange->addWidget(rangeBox_);
    chartAndRange->setStretchFactor(0, 3);
    chartAndRange->setStretchFactor(1, 1);
    layout->addWidget(chartAndRange, 1);

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
    connect(model_, &ExecutionModel::windowChanged, this, [this] {
        // A range asked for at open is part of what the view shows, and so are the flame's bars
        // whose program paths are still being read (the window is fetched again once they are).
        if (!rangePending_ && !model_->isSettling())
            markReady();
    });
    connect(model_, &ExecutionModel::failed, this, &ReportView::failed);
    connect(runs_, &QComboBox::currentIndexChanged, model_, &ExecutionModel::setCurrentRun);
    connect(mode_, &QComboBox::currentIndexChanged, this, [this](int index) {
        model_->setMode(ExecutionModel::Mode(index));
        firstTile_->setEnabled(index == ExecutionModel::Bsp);
        firstTile_->setVisible(index != ExecutionModel::PerIpu && index != ExecutionModel::Blocks);
        tileCount_->setVisible(index != ExecutionModel::PerIpu && index != ExecutionModel::Blocks);
        tileCount_->setEnabled(index == ExecutionModel::Bsp);
    });
    auto tilesChanged = [this] {
        model_->setTileRange(std::uint32_t(firstTile_->value()),
                             std::uint32_t(tileCount_->value()));
    };
    connect(firstTile_, &QSpinBox::valueChanged, this, tilesChanged);
    connect(tileCount_, &QSpinBox::valueChanged, this, tilesChanged);
    connect(filter_, &QLineEdit::textChanged, filterTyping_, qOverload<>(&QTimer::start));
    connect(model_, &ExecutionModel::filterChanged, this, &ExecutionView::showFilterFigures);
    connect(canvas_, &ExecutionCanvas::stepClicked, this, [this](std::int64_t step) {
        this->session().state().selectedStep = step;
        debugInfo_->showStep(step);
    });
    connect(mode_, &QComboBox::currentIndexChanged, this, [this](int index) {
        this->session().state().executionMode = index;
        showHint(index);
    });
    connect(canvas_, &ExecutionCanvas::programClicked, this, [this](std::int64_t program) {
        this->session().state().selectedProgram = program;
        debugInfo_->showProgram(program);
    });
    connect(canvas_, &ChartCanvas::rangeSelected, this, &ExecutionView::showRange);
    connect(canvas_, &ChartCanvas::rangeCleared, this, [this] {
        ++rangeGeneration_;
        this->session().state().cycleRange.reset();
        rangeBox_->hide();
    });
    connect(model_, &ExecutionModel::runChanged, this, [this] {
        if (const auto range = this->session().state().cycleRange)
            canvas_->selectRange(range->first, range->second); // the same cycles of this run
    });
    mode_->setCurrentIndex(this->session().state().executionMode);
    showHint(mode_->currentIndex());
    rangePending_ = this->session().state().cycleRange.has_value();
    canvas_->setSelectedProgram(this->session().state().selectedProgram);
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

void ExecutionView::showEvent(QShowEvent* event) {
    ReportView::showEvent(event);
    canvas_->setSelectedProgram(session().state().selectedProgram);
}

void ExecutionView::showHint(int mode) {
    static const char* const what[] = {
        QT_TR_NOOP("Each pixel column: the share of its cycles by phase."),
        QT_TR_NOOP("The programs each step runs under, root on top, each program in its own "
                   "colour (the Program Tree's); click a bar to select its program."),
        QT_TR_NOOP("For a range of tiles, each tile's own cycles of every step in the phase "
                   "colour, then its wait for the slowest tile."),
        QT_TR_NOOP("Each IPU's own cycles of every step in the phase colour, then its wait for "
                   "the slowest IPU."),
        QT_TR_NOOP("Recorded block executions: a band per recording tile (named on the axis), "
                   "nested blocks on the rows below; user blocks coloured by name, stream copies "
                   "and flushes in the stream colour, overflows red.")};
    const int m = std::clamp(mode, 0, int(std::size(what)) - 1);
    hint_->setText(tr(what[m]) + QLatin1Char(' ') +
                   tr("Wheel or W/S to zoom, drag or A/D to pan, Home to reset, Shift+drag to "
                      "sum a range; zoomed in, hover a step for its details and click it to "
                      "select it in the other views."));
}

QString ExecutionView::hintText() const {
    return hint_->text();
}

void ExecutionView::rangeFilled() {
    rangePending_ = false;
    if (model_->hasWindow() && !model_->isSettling())
        markReady();
    emit rangeShown();
}

QString ExecutionView::rangeText() const {
    return rangeSummary_->text();
}

void ExecutionView::showRange(double firstCycle, double endCycle) {
    const auto* run = model_->run();
    if (!run)
        return;
    const auto first = std::uint64_t(std::max(0.0, std::floor(firstCycle)));
    const auto end = std::uint64_t(std::max(0.0, std::ceil(endCycle)));
    session().state().cycleRange = std::make_pair(double(first), double(end));
    if (!canvas_->selectedRange() || canvas_->selectedRange()->first != double(first) ||
        canvas_->selectedRange()->second != double(end)) {
        canvas_->selectRange(double(first), double(end)); // comes back here
        return;
    }
    rangeBox_->show();
    rangePending_ = true;
    rangeSummary_->setText(
        tr("Cycles %1–%2: summing…")
            .arg(formatCount(std::int64_t(first)), formatCount(std::int64_t(end))));
    const std::uint64_t generation = ++rangeGeneration_;
    auto shared = sharedSession();
    const report::RunRecord r = *run;
    runInBackground<RangeSummary>(
        this,
        [shared, r, first, end] {
            return shared->read([&](const report::ProfileReader& reader) {
                return RangeSummary::fetch(reader, r, first, end);
            });
        },
        [this, generation](RangeSummary sum) {
            if (generation != rangeGeneration_)
                return;
            const double clock = session().target().clockHz;
            const std::uint64_t cycles = sum.cycles();
            QStringList phases;
            for (int p = 0; p < ExecutionModel::PhaseCount; ++p)
                if (sum.phaseCycles[std::size_t(p)])
                    phases << QStringLiteral("%1 %2 (%3)")
                                  .arg(ExecutionModel::phaseName(p),
                                       formatCount(std::int64_t(sum.phaseCycles[std::size_t(p)])),
                                       formatPercent(double(sum.phaseCycles[std::size_t(p)]) /
                                                     double(std::max<std::uint64_t>(1, cycles))));
            rangeSummary_->setText(
                tr("<b>Cycles %1–%2</b> (%3, %4): %5 steps · %6 · %7 exchanged · %8 programs%9")
                    .arg(formatCount(std::int64_t(sum.firstCycle)),
                         formatCount(std::int64_t(sum.endCycle)),
                         formatCount(std::int64_t(sum.endCycle - sum.firstCycle)),
                         formatCycles(sum.endCycle - sum.firstCycle, clock),
                         formatCount(std::int64_t(sum.steps)),
                         phases.isEmpty() ? tr("no cycles") : phases.join(QStringLiteral(", ")),
                         formatBytes(double(sum.exchangeBytes)),
                         formatCount(std::int64_t(sum.programs.size())),
                         sum.truncated ? tr(" · only the first %1 steps counted")
                                             .arg(formatCount(RangeSummary::kMaxSteps))
                                       : QString()));
            std::vector<RecordTableModel::Row> rows;
            for (const auto& p : sum.programs)
                rows.push_back(
                    {QString::fromStdString(
                         p.name.empty() ? "program " + std::to_string(p.programId) : p.name),
                     RecordTableModel::u64(p.cycles),
                     cycles ? double(p.cycles) / double(cycles) : 0.0,
                     RecordTableModel::u64(p.steps)});
            rangePrograms_->setRows(std::move(rows));
            rangeFilled();
        },
        [this, generation](const QString& message) {
            if (generation != rangeGeneration_)
                return;
            rangeSummary_->setText(tr("Cannot sum the range: %1").arg(message));
            rangePrograms_->setRows({});
            rangeFilled();
        });
}

} // namespace tilescope::gui

namespace tilescope::gui {

void ExecutionView::applyFilter() {
    StepFilter f;
    f.text = filter_->text().trimmed().toStdString();
    for (int p = 0; p < ExecutionModel::PhaseCount; ++p)
        f.phases[std::size_t(p)] = phaseBoxes_[p]->isChecked();
    model_->setStepFilter(f);
}

void ExecutionView::showFilterFigures() {
    const StepFilterIndex* index = model_->stepFilter();
    const auto* run = model_->run();
    if (!index || !run) {
        filterFigures_->clear();
        filterFigures_->hide();
        return;
    }
    // Restricted to the matching steps: steps, cycles, phase shares, compute tile balance and
    // bytes moved. Parallel efficiency stays a whole-run figure (tiles x the run's cycles).
    const auto& f = index->figures();
    const std::uint64_t cycles = f.totalCycles();
    QStringList parts;
    for (int p = 0; p < ExecutionModel::PhaseCount; ++p)
        if (f.cycles[std::size_t(p)] > 0)
            parts << QStringLiteral("%1 %2").arg(
                ExecutionModel::phaseName(p),
                formatPercent(double(f.cycles[std::size_t(p)]) / double(cycles)));
    filterFigures_->setText(
        tr("Matching steps only: %1 executed steps (of %2 program steps), %3 cycles = %4 of the "
           "run · %5 · compute tile balance %6 · exchanges %7, stream copies %8 · parallel "
           "efficiency above is for the whole run")
            .arg(formatCount(std::int64_t(f.totalSteps())),
                 formatCount(std::int64_t(f.loweredSteps)), formatCount(std::int64_t(cycles)),
                 formatPercent(run->totalCycles ? double(cycles) / double(run->totalCycles) : 0),
                 parts.isEmpty() ? tr("no cycles") : parts.join(", "),
                 formatPercent(f.computeTileBalance()), formatBytes(double(f.exchangeBytes)),
                 formatBytes(double(f.streamCopyBytes))));
    filterFigures_->show();
}

QString ExecutionView::filterText() const {
    return filterFigures_->text();
}

} // namespace tilescope::gui
