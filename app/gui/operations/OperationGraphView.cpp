#include "OperationGraphView.hpp"

#include "OperationGraphWidget.hpp"
#include "core/Background.hpp"
#include "core/Format.hpp"
#include "core/ReportSession.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace tilescope::gui {

OperationGraphView::OperationGraphView(std::shared_ptr<ReportSession> session, QWidget* parent)
    : ReportView(std::move(session), parent) {
    widget_ = new OperationGraphWidget;
    metric_ = new QComboBox;
    metric_->addItems(
        {tr("Colour by cycles"), tr("Colour by variable memory"), tr("Colour by code")});
    metric_->setToolTip(tr("What the colour of each operation shows (inclusive for a closed "
                           "layer)"));
    auto* expandAll = new QPushButton(tr("Expand all"));
    auto* collapseAll = new QPushButton(tr("Collapse all"));
    auto* fit = new QPushButton(tr("Fit"));
    status_ = new QLabel(tr("Loading operations…"));
    details_ = new QLabel(tr("Click an operation for its figures; double-click a layer to open "
                             "or close it. Wheel zooms, drag pans, Home fits."));
    details_->setWordWrap(true);
    details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* bar = new QHBoxLayout;
    bar->addWidget(metric_);
    bar->addWidget(expandAll);
    bar->addWidget(collapseAll);
    bar->addWidget(fit);
    bar->addWidget(status_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(details_);
    layout->addWidget(widget_, 1);

    connect(metric_, &QComboBox::currentIndexChanged, this,
            [this](int index) { widget_->setMetric(OperationGraph::Metric(index)); });
    connect(fit, &QPushButton::clicked, widget_, &OperationGraphWidget::fit);
    connect(widget_, &OperationGraphWidget::layerToggleRequested, this, [this](int operation) {
        if (graph_)
            setGraph(graph_->toggled(operation));
    });
    connect(expandAll, &QPushButton::clicked, this, [this] {
        if (!graph_)
            return;
        std::set<int> all;
        for (std::size_t i = 0; i < graph_->operations().operations.size(); ++i)
            if (graph_->isLayer(int(i)))
                all.insert(int(i));
        setGraph(graph_->withExpanded(std::move(all)));
    });
    connect(collapseAll, &QPushButton::clicked, this, [this] {
        if (graph_)
            setGraph(graph_->withExpanded({}));
    });
    connect(widget_, &OperationGraphWidget::nodeClicked, this, [this](int node) {
        const int operation = graph_->nodes()[std::size_t(node)].operation;
        this->session().state().selectedOperation =
            graph_->operations().operations[std::size_t(operation)].operation.id;
        showSelection();
    });

    auto shared = sharedSession();
    runInBackground<OperationGraph>(
        this,
        [shared] {
            return shared->read([](const report::ProfileReader& reader) {
                report::RolledUpOperations ops = report::rollUpOperations(reader);
                std::set<int> open = OperationGraph::defaultExpanded(ops);
                return OperationGraph(std::move(ops), std::move(open));
            });
        },
        [this](OperationGraph graph) {
            setGraph(std::move(graph));
            showSelection();
            markReady();
        },
        [this](const QString& message) {
            status_->setText(tr("Cannot read the operations: %1").arg(message));
            emit failed(message);
        });
}

const OperationGraph* OperationGraphView::graph() const {
    return graph_.get();
}

QString OperationGraphView::detailsText() const {
    return details_->text();
}

void OperationGraphView::setGraph(OperationGraph graph) {
    graph_ = std::make_shared<const OperationGraph>(std::move(graph));
    widget_->setGraph(graph_);
    const auto& ops = graph_->operations().operations;
    std::size_t layers = 0;
    for (std::size_t i = 0; i < ops.size(); ++i)
        layers += graph_->isLayer(int(i)) ? 1 : 0;
    status_->setText(tr("%1 operations in %2 nodes, %3 tensor edges · %4 layers, %5 open")
                         .arg(formatCount(std::int64_t(ops.size())),
                              formatCount(std::int64_t(graph_->nodes().size())),
                              formatCount(std::int64_t(graph_->edges().size())),
                              formatCount(std::int64_t(layers)),
                              formatCount(std::int64_t(graph_->expanded().size()))));
}

void OperationGraphView::showSelection() {
    if (!graph_)
        return;
    const auto wanted = session().state().selectedOperation;
    const auto& ops = graph_->operations().operations;
    int operation = -1;
    for (std::size_t i = 0; wanted && i < ops.size(); ++i)
        if (ops[i].operation.id == *wanted)
            operation = int(i);
    widget_->setSelectedOperation(operation);
    const int node = graph_->nodeOf(operation);
    if (node < 0)
        return;
    widget_->ensureVisible(node); // picked in another view: bring it on screen
    const auto& n = graph_->nodes()[std::size_t(node)];
    const double clock = session().target().clockHz;
    details_->setText(
        tr("<b>%1</b>%2 · %3 · %4 · variables %5 · code %6%7")
            .arg(QString::fromStdString(n.name).toHtmlEscaped(),
                 n.layer.empty()
                     ? QString()
                     : QStringLiteral(" (%1)").arg(QString::fromStdString(n.layer).toHtmlEscaped()),
                 QString::fromStdString(n.path).toHtmlEscaped(), formatCycles(n.cycles, clock),
                 formatBytes(double(n.memory)), formatBytes(double(n.code)),
                 n.collapsed ? tr(" · a closed layer of %1 operations").arg(n.members)
                             : QString()));
}

void OperationGraphView::showEvent(QShowEvent* event) {
    ReportView::showEvent(event);
    showSelection(); // an operation picked in the Operations view meanwhile
}

} // namespace tilescope::gui
