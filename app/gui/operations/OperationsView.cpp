#include "OperationsView.hpp"

#include "OperationsModel.hpp"
#include "core/DebugInfoPane.hpp"
#include "core/Format.hpp"
#include "core/ReportSession.hpp"
#include "tables/SortableTable.hpp"
#include "tables/TableControls.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace tilescope::gui {
namespace {

QTableView* table(RecordTableModel& model, QObject* owner) {
    QTableView* t = newSortableTable(model, owner);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setTextElideMode(Qt::ElideMiddle);
    t->setWordWrap(false);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

/// Source row of a proxy index (or -1).
int sourceRow(const QTableView* t, const QModelIndex& index) {
    if (!index.isValid())
        return -1;
    const auto* proxy = qobject_cast<const QSortFilterProxyModel*>(t->model());
    return proxy ? proxy->mapToSource(index).row() : index.row();
}

QWidget* titled(QLabel* title, QTableView* t) {
    auto* w = new QWidget;
    auto* l = new QVBoxLayout(w);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(title);
    l->addWidget(t);
    return w;
}

} // namespace

OperationsView::OperationsView(std::shared_ptr<ReportSession> session, QWidget* parent)
    : ReportView(std::move(session), parent) {
    model_ = new OperationsModel(sharedSession(), this);
    operations_ = table(model_->operations(), this);
    steps_ = table(model_->steps(), this);
    variables_ = table(model_->variables(), this);

    auto* filter = newTableFilter(operations_, tr("Filter operations (name, path, layer)"));
    status_ = new QLabel(tr("Loading operations…"));
    figures_ = new QComboBox;
    figures_->addItems({tr("Including nested operations"), tr("Own figures only")});
    figures_->setToolTip(tr("Steps, cycles, code and memory of each operation with those of the "
                            "operations nested in it (a layer's work is in its children), or "
                            "its own only"));
    auto* toolbar = new QHBoxLayout;
    toolbar->addWidget(filter, 1);
    toolbar->addWidget(figures_);
    toolbar->addWidget(newColumnPicker(operations_));
    toolbar->addWidget(status_);

    operationLabel_ = new QLabel(tr("Select an operation to see its steps and variables."));
    operationLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* stepsTitle = new QLabel(tr("Lowered steps (select one to show it in the Liveness and "
                                     "Program Tree views)"));
    auto* variablesTitle =
        new QLabel(tr("Variables (select one to select its tiles in the Memory view)"));
    auto* details = new QSplitter(Qt::Horizontal);
    details->addWidget(titled(stepsTitle, steps_));
    details->addWidget(titled(variablesTitle, variables_));
    auto* lower = new QWidget;
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(operationLabel_);
    lowerLayout->addWidget(details, 1);

    // The selected operation's debug information beside the table.
    debugInfo_ = new DebugInfoPane(sharedSession());
    auto* upper = new QSplitter(Qt::Horizontal);
    upper->addWidget(operations_);
    upper->addWidget(debugInfo_);
    upper->setStretchFactor(0, 3);
    upper->setStretchFactor(1, 2);
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(upper);
    splitter->addWidget(lower);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(toolbar);
    layout->addWidget(splitter, 1);

    connect(figures_, &QComboBox::currentIndexChanged, this,
            [this](int index) { setInclusive(index == 0); });
    connect(model_, &OperationsModel::loadedChanged, this, &OperationsView::onOperationsLoaded);
    connect(model_, &OperationsModel::operationLoaded, this, [this] {
        showOperationInfo();
        markReady();
    });
    connect(model_, &OperationsModel::failed, this, &ReportView::failed);
    connect(operations_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &OperationsView::onOperationChanged);
    connect(steps_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                const int row = sourceRow(steps_, current);
                if (row < 0)
                    return;
                this->session().state().selectedStep = model_->stepIdAt(row);
                this->session().state().selectedProgram = model_->stepProgramAt(row);
            });
    connect(variables_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                const int row = sourceRow(variables_, current);
                if (row >= 0)
                    this->session().state().selectedTiles = model_->variableTilesAt(row);
            });
    model_->load();
}

void OperationsView::setInclusive(bool inclusive) {
    if (figures_->currentIndex() != (inclusive ? 0 : 1))
        figures_->setCurrentIndex(inclusive ? 0 : 1); // comes back here through the signal
    model_->setInclusive(inclusive);
    // One set of cost columns at a time, in the same place: the inclusive ones sit where the
    // own ones are. "Sub-ops" and the Columns picker still give the other set when wanted.
    using M = OperationsModel;
    const std::pair<int, int> pairs[] = {{M::Steps, M::InclusiveSteps},
                                         {M::Cycles, M::InclusiveCycles},
                                         {M::Code, M::InclusiveCode},
                                         {M::Memory, M::InclusiveMemory},
                                         {M::Flops, M::InclusiveFlops}};
    QHeaderView* header = operations_->horizontalHeader();
    for (const auto& [own, incl] : pairs) {
        const bool hasColumn = own != M::Flops || model_->hasFlops();
        operations_->setColumnHidden(own, inclusive || !hasColumn);
        operations_->setColumnHidden(incl, !inclusive || !hasColumn);
        header->moveSection(header->visualIndex(incl), header->visualIndex(own) + 1);
    }
    if (model_->isLoaded())
        showOperationInfo();
}

void OperationsView::onOperationsLoaded() {
    setInclusive(model_->isInclusive());
    operations_->resizeColumnsToContents();
    const int count = model_->operations().rowCount();
    if (count == 0) {
        status_->setText(tr("This report records no operations."));
        operationLabel_->clear();
        markReady();
        return;
    }
    status_->setText(tr("%1 operations").arg(formatCount(count)));
    // Restore the previous choice, else start on the first row so the details are never empty.
    QModelIndex pick = operations_->model()->index(0, 0);
    if (const auto wanted = session().state().selectedOperation)
        for (int r = 0; r < operations_->model()->rowCount(); ++r) {
            const QModelIndex i = operations_->model()->index(r, 0);
            if (model_->operationIdAt(sourceRow(operations_, i)) == *wanted)
                pick = i;
        }
    operations_->setCurrentIndex(pick);
}

void OperationsView::onOperationChanged() {
    const int row = sourceRow(operations_, operations_->currentIndex());
    if (row < 0)
        return;
    const std::int64_t id = model_->operationIdAt(row);
    session().state().selectedOperation = id;
    debugInfo_->showOperation(id);
    operationLabel_->setText(
        tr("<b>%1</b>: loading…")
            .arg(model_->operations().value(row, 0).toString().toHtmlEscaped()));
    model_->selectOperation(id);
}

void OperationsView::showOperationInfo() {
    const int row = sourceRow(operations_, operations_->currentIndex());
    if (row < 0)
        return;
    const RecordTableModel& ops = model_->operations();
    const double clock = session().target().clockHz;
    using M = OperationsModel;
    const auto subOps = ops.value(row, M::SubOperations).toULongLong();
    const bool inclusive = model_->isInclusive() && subOps > 0;
    const auto figure = [&](int own, int incl) {
        return ops.value(row, inclusive ? incl : own).toULongLong();
    };
    QString text = tr("<b>%1</b> (%2) · %3 steps, %4 · code %5 · %6 variables, %7")
                       .arg(ops.value(row, M::Name).toString().toHtmlEscaped(),
                            ops.value(row, M::Layer).toString().toHtmlEscaped(),
                            formatCount(model_->steps().rowCount()),
                            formatCycles(figure(M::Cycles, M::InclusiveCycles), clock),
                            formatBytes(double(figure(M::Code, M::InclusiveCode))),
                            formatCount(model_->variables().rowCount()),
                            formatBytes(double(figure(M::Memory, M::InclusiveMemory))));
    if (inclusive)
        text += tr(" · with its %1 nested operations (own: %2 steps, %3)")
                    .arg(formatCount(std::int64_t(subOps)),
                         formatCount(std::int64_t(ops.value(row, M::Steps).toULongLong())),
                         formatCycles(ops.value(row, M::Cycles).toULongLong(), clock));
    else if (subOps)
        text += tr(" · own figures; with its %1 nested operations: %2 steps, %3")
                    .arg(formatCount(std::int64_t(subOps)),
                         formatCount(std::int64_t(ops.value(row, M::InclusiveSteps).toULongLong())),
                         formatCycles(ops.value(row, M::InclusiveCycles).toULongLong(), clock));
    operationLabel_->setText(text);
    steps_->resizeColumnsToContents();
    variables_->resizeColumnsToContents();
}

} // namespace tilescope::gui
