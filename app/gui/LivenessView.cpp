#include "LivenessView.hpp"

#include "Format.hpp"
#include "LiveVariablesModel.hpp"
#include "LivenessCanvas.hpp"
#include "LivenessModel.hpp"
#include "ReportSession.hpp"
#include "TableExport.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace tilescope::gui {

LivenessView::LivenessView(std::shared_ptr<ReportSession> session, QWidget* parent)
    : ReportView(std::move(session), parent) {
    model_ = new LivenessModel(sharedSession(), this);
    variables_ = new LiveVariablesModel(sharedSession(), this);
    canvas_ = new LivenessCanvas(*model_);

    auto* hint = new QLabel(tr("Memory of all tiles over program steps. Wheel or W/S to zoom, "
                               "drag or A/D to pan, Home to reset; click a step to list its "
                               "live variables."));
    hint->setWordWrap(true);
    stepLabel_ = new QLabel(tr("No step selected."));
    stepLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    filter_ = new QLineEdit;
    filter_->setPlaceholderText(tr("Filter variables by name"));
    filter_->setClearButtonEnabled(true);
    filter_->setText(this->session().state().variableFilter);

    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(variables_);
    proxy_->setSortRole(Qt::UserRole);
    proxy_->setFilterKeyColumn(0);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setFilterFixedString(filter_->text());
    table_ = new QTableView;
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(-1, Qt::AscendingOrder);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setAlternatingRowColors(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    addTableActions(table_);

    auto* lower = new QWidget;
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(stepLabel_);
    lowerLayout->addWidget(filter_);
    lowerLayout->addWidget(table_);
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(canvas_);
    splitter->addWidget(lower);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(hint);
    layout->addWidget(splitter, 1);

    connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
        this->session().state().variableFilter = text;
        proxy_->setFilterFixedString(text);
    });
    connect(canvas_, &LivenessCanvas::stepClicked, this, &LivenessView::selectStep);
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
        if (!variables_->isLoading())
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

void LivenessView::showEvent(QShowEvent* event) {
    ReportView::showEvent(event);
    const std::optional<std::int64_t> wanted = session().state().selectedStep;
    if (!model_->isLoaded() || !wanted || variables_->step() == wanted ||
        *wanted >= model_->stepCount())
        return;
    selectStep(*wanted);
    const HorizontalViewport& v = canvas_->viewport();
    if (double(*wanted) < v.begin() || double(*wanted) >= v.end())
        canvas_->showWindow(double(*wanted) - v.span() / 2, double(*wanted) + v.span() / 2);
}

void LivenessView::showStepInfo() {
    const auto& i = variables_->stepInfo();
    const double clock = session().target().clockHz;
    stepLabel_->setText(
        tr("<b>Step %1</b>: %2 (%3) in <i>%4</i> · estimated %5 · not-always-live %6 "
           "(fullest tile %7) · %8 live variables, %9")
            .arg(formatCount(i.id), i.kind.toHtmlEscaped(), i.phase.toHtmlEscaped(),
                 i.program.toHtmlEscaped(), formatCycles(i.estimatedCycles, clock),
                 formatBytes(double(i.notAlwaysLiveBytes)),
                 formatBytes(double(i.maxTileNotAlwaysLiveBytes)),
                 formatCount(variables_->rowCount()), formatBytes(double(i.variableBytes))));
    if (model_->hasWindow())
        markReady();
}

} // namespace tilescope::gui
