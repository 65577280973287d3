#include "LivenessView.hpp"

#include "LiveVariablesModel.hpp"
#include "LivenessCanvas.hpp"
#include "LivenessModel.hpp"
#include "LivenessStepDiffModel.hpp"
#include "core/DebugInfoPane.hpp"
#include "core/Format.hpp"
#include "core/ReportSession.hpp"
#include "tables/SortableTable.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace tilescope::gui {

LivenessView::LivenessView(std::shared_ptr<ReportSession> session, QWidget* parent)
    : ReportView(std::move(session), parent) {
    model_ = new LivenessModel(sharedSession(), this);
    variables_ = new LiveVariablesModel(sharedSession(), this);
    canvas_ = new LivenessCanvas(*model_);
    compare_ = new LivenessStepDiffModel(sharedSession(), this);
    grouping_ = new QComboBox;
    grouping_->addItems({tr("All tiles"), tr("Per IPU"), tr("Selected tiles")});
    grouping_->setToolTip(tr("Chart memory of all tiles, of each IPU, or of the tiles selected "
                             "in the Memory view"));

    includeAlwaysLive_ = new QCheckBox(tr("Include always-live"));
    includeAlwaysLive_->setToolTip(tr("Stack not-always-live memory on the always-live memory "
                                      "reserved at every step; off, the axis starts where "
                                      "not-always-live memory starts, so its changes fill the "
                                      "chart"));
    includeAlwaysLive_->setChecked(this->session().state().includeAlwaysLive);
    canvas_->setIncludeAlwaysLive(includeAlwaysLive_->isChecked());

    auto* hint = new QLabel(tr("Memory of all tiles over program steps. Wheel or W/S to zoom, "
                               "drag or A/D to pan, Home to reset; click a step to list its "
                               "live variables, shift-click a second step to compare them."));
    hint->setWordWrap(true);
    stepLabel_ = new QLabel(tr("No step selected."));
    stepLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    filter_ = new QLineEdit;
    filter_->setPlaceholderText(tr("Filter variables by name"));
    filter_->setClearButtonEnabled(true);
    filter_->setText(this->session().state().variableFilter);

    table_ = newSortableTable(*variables_, this);
    table_->horizontalHeader()->setStretchLastSection(true);
    proxy_ = static_cast<QSortFilterProxyModel*>(table_->model());
    proxy_->setFilterKeyColumn(0);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setFilterFixedString(filter_->text());

    auto* live = new QWidget;
    auto* lowerLayout = new QVBoxLayout(live);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(stepLabel_);
    lowerLayout->addWidget(filter_);
    debugInfo_ = new DebugInfoPane(sharedSession());
    auto* tableAndDebugInfo = new QSplitter(Qt::Horizontal);
    tableAndDebugInfo->addWidget(table_);
    tableAndDebugInfo->addWidget(debugInfo_);
    tableAndDebugInfo->setStretchFactor(0, 3);
    tableAndDebugInfo->setStretchFactor(1, 2);
    lowerLayout->addWidget(tableAndDebugInfo);
    compareLabel_ = new QLabel(tr("Click a step, then shift-click another to compare them."));
    compareLabel_->setWordWrap(true);
    compareLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* compareTable = newSortableTable(*compare_, this);
    compareTable->horizontalHeader()->setStretchLastSection(true);
    auto* comparePage = new QWidget;
    auto* compareLayout = new QVBoxLayout(comparePage);
    compareLayout->setContentsMargins(0, 0, 0, 0);
    compareLayout->addWidget(compareLabel_);
    compareLayout->addWidget(compareTable);
    auto* alwaysLiveTable = newSortableTable(variables_->alwaysLiveVariables(), this);
    alwaysLiveTable->horizontalHeader()->setStretchLastSection(true);
    auto* verticesTable = newSortableTable(variables_->vertices(), this);
    verticesTable->horizontalHeader()->setStretchLastSection(true);
    auto* lower = new QTabWidget;
    lower->addTab(live, tr("Live at step"));
    lower->addTab(alwaysLiveTable, tr("Always-live variables"));
    lower->addTab(verticesTable, tr("Vertices"));
    lower->addTab(comparePage, tr("Compare two steps"));
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(canvas_);
    splitter->addWidget(lower);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Memory of:")));
    top->addWidget(grouping_);
    top->addWidget(includeAlwaysLive_);
    top->addWidget(hint, 1);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
        this->session().state().variableFilter = text;
        proxy_->setFilterFixedString(text);
    });
    connect(canvas_, &LivenessCanvas::stepClicked, this, &LivenessView::selectStep);
    // A live variable selected: the operations that created it, instead of the step's.
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                const std::int64_t id =
                    variables_->variableIdAt(proxy_->mapToSource(current).row());
                if (id >= 0)
                    debugInfo_->showVariable(id);
            });
    connect(canvas_, &LivenessCanvas::compareStepClicked, this, [this, lower](std::int64_t step) {
        compareWith(step);
        lower->setCurrentIndex(lower->count() - 1);
    });
    connect(compare_, &LivenessStepDiffModel::compared, this, &LivenessView::showComparison);
    connect(compare_, &LivenessStepDiffModel::failed, this, [this](const QString& message) {
        compareLabel_->setText(tr("Cannot compare the steps: %1").arg(message));
    });
    connect(grouping_, &QComboBox::currentIndexChanged, this, &LivenessView::applyGrouping);
    connect(includeAlwaysLive_, &QCheckBox::toggled, this, &LivenessView::setIncludeAlwaysLive);
    connect(canvas_, &ChartCanvas::windowChanged, this, [this](double begin, double end) {
        this->session().state().stepWindow = std::make_pair(begin, end);
    });
    connect(variables_, &LiveVariablesModel::stepLoaded, this, &LivenessView::showStepInfo);
    connect(variables_, &LiveVariablesModel::failed, this, [this](const QString& message) {
        stepLabel_->setText(tr("Cannot read the step: %1").arg(message));
    });
    connect(model_, &LivenessModel::loadedChanged, this, [this] {
        const ViewState& s = this->session().state();
        if (s.stepWindow)
            canvas_->showWindow(s.stepWindow->first, s.stepWindow->second);
        if (s.selectedStep && *s.selectedStep < model_->stepCount())
            selectStep(*s.selectedStep);
        if (model_->stepCount() == 0)
            markReady();
    });
    connect(model_, &LivenessModel::windowChanged, this, [this] {
        if (model_->hasWindow() && !variables_->isLoading())
            markReady();
    });
    connect(model_, &LivenessModel::failed, this, &ReportView::failed);
    model_->load();
}

void LivenessView::selectStep(std::int64_t step) {
    session().state().selectedStep = step;
    canvas_->setSelectedStep(step);
    stepLabel_->setText(tr("Step %1: loading…").arg(formatCount(step)));
    variables_->showStep(step);
}

void LivenessView::setIncludeAlwaysLive(bool include) {
    session().state().includeAlwaysLive = include;
    if (includeAlwaysLive_->isChecked() != include)
        includeAlwaysLive_->setChecked(include);
    canvas_->setIncludeAlwaysLive(include);
}

void LivenessView::showEvent(QShowEvent* event) {
    ReportView::showEvent(event);
    // The Memory view may have changed the selection while this view was hidden.
    if (model_->grouping() == LivenessModel::SelectedTiles &&
        model_->groupSelection() != session().state().selectedTiles)
        applyGrouping(LivenessModel::SelectedTiles);
    const std::optional<std::int64_t> wanted = session().state().selectedStep;
    if (!model_->isLoaded() || !wanted || variables_->step() == wanted ||
        *wanted >= model_->stepCount())
        return;
    selectStep(*wanted);
    const HorizontalViewport& v = canvas_->viewport();
    if (double(*wanted) < v.begin() || double(*wanted) >= v.end())
        canvas_->showWindow(double(*wanted) - v.span() / 2, double(*wanted) + v.span() / 2);
}

void LivenessView::applyGrouping(int index) {
    model_->setGrouping(LivenessModel::Grouping(index), session().state().selectedTiles);
}

void LivenessView::compareWith(std::int64_t step) {
    const std::int64_t from = session().state().selectedStep.value_or(0);
    canvas_->setCompareStep(step);
    compareLabel_->setText(
        tr("Comparing step %1 with step %2: loading…").arg(formatCount(from), formatCount(step)));
    compare_->compare(from, step);
}

void LivenessView::showComparison() {
    const StepLiveDiff& c = compare_->comparison();
    const std::int64_t delta = c.byteDelta();
    compareLabel_->setText(
        tr("<b>Step %1 → step %2</b>: not-always-live %3 → %4 (%5%6) · %7 variables became live "
           "(%8) · %9 stopped being live (%10)")
            .arg(formatCount(c.fromStep), formatCount(c.toStep), formatBytes(double(c.fromBytes)),
                 formatBytes(double(c.toBytes)),
                 delta >= 0 ? QStringLiteral("+") : QStringLiteral("−"),
                 formatBytes(double(std::llabs(delta))),
                 formatCount(std::int64_t(c.becameLive.size())),
                 formatBytes(double(c.becameLiveBytes)),
                 formatCount(std::int64_t(c.stoppedLive.size())),
                 formatBytes(double(c.stoppedLiveBytes))));
}

void LivenessView::showStepInfo() {
    const auto& i = variables_->stepInfo();
    debugInfo_->showProgram(i.programId); // the operations the step's program belongs to
    const double clock = session().target().clockHz;
    // The per-tile estimates say whether the slowest tile is alone or the step is balanced.
    const QString tiles =
        i.busyTiles ? tr(" (slowest tile %1; %2 tiles with work, mean %3)")
                          .arg(formatCount(i.slowestTile), formatCount(std::int64_t(i.busyTiles)),
                               formatCycles(std::uint64_t(i.meanBusyTileCycles + 0.5), clock))
                    : QString();
    stepLabel_->setText(
        tr("<b>Step %1</b>: %2 (%3) in <i>%4</i> · estimated %5%6 · not-always-live %7 "
           "(fullest tile %8) · %9 live variables, %10 · always-live %11 in %12 variables · %13")
            .arg(formatCount(i.id), i.kind.toHtmlEscaped(), i.phase.toHtmlEscaped(),
                 i.program.toHtmlEscaped(), formatCycles(i.estimatedCycles, clock), tiles,
                 formatBytes(double(i.notAlwaysLiveBytes)),
                 formatBytes(double(i.maxTileNotAlwaysLiveBytes)),
                 formatCount(variables_->rowCount()), formatBytes(double(i.variableBytes)))
            .arg(formatBytes(double(i.alwaysLiveBytes)),
                 formatCount(std::int64_t(i.alwaysLiveCount)),
                 i.vertexCount ? tr("%1 vertices: %2")
                                     .arg(formatCount(std::int64_t(i.vertexCount)),
                                          i.vertexTypes.toHtmlEscaped())
                               : tr("no vertices")));
    if (model_->hasWindow())
        markReady();
}

} // namespace tilescope::gui
