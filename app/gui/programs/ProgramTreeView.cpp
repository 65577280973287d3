#include "ProgramTreeView.hpp"

#include "core/DebugInfoPane.hpp"
#include "core/Format.hpp"
#include "core/ReportSession.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeView>
#include <QVBoxLayout>

namespace tilescope::gui {
namespace {

QString row(const QString& key, const QString& value) {
    return QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(key, value);
}

} // namespace

ProgramTreeView::ProgramTreeView(std::shared_ptr<ReportSession> session, QWidget* parent)
    : ReportView(std::move(session), parent) {
    model_ = new ProgramTreeModel(sharedSession(), this);
    tree_ = new QTreeView;
    tree_->setModel(model_);
    tree_->setUniformRowHeights(true); // keeps scrolling cheap on wide trees
    tree_->setAlternatingRowColors(true);
    tree_->header()->setSectionResizeMode(ProgramTreeModel::NameColumn, QHeaderView::Interactive);
    tree_->header()->resizeSection(ProgramTreeModel::NameColumn, 280);
    tree_->header()->setStretchLastSection(true);
    details_ = new QTextBrowser;
    details_->setPlaceholderText(tr("Select a program or step to see its details."));

    search_ = new QLineEdit;
    search_->setPlaceholderText(tr("Find a program by name (Enter: next match)"));
    search_->setClearButtonEnabled(true);
    searchStatus_ = new QLabel;
    auto* searchRow = new QHBoxLayout;
    searchRow->addWidget(search_, 1);
    searchRow->addWidget(searchStatus_);

    debugInfo_ = new DebugInfoPane(sharedSession());
    auto* detailsSplitter = new QSplitter(Qt::Vertical);
    detailsSplitter->addWidget(details_);
    detailsSplitter->addWidget(debugInfo_);
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(tree_);
    splitter->addWidget(detailsSplitter);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(searchRow);
    layout->addWidget(splitter, 1);

    connect(search_, &QLineEdit::returnPressed, this, [this] {
        if (search_->text().trimmed().isEmpty())
            return;
        searchStatus_->setText(tr("Searching…"));
        model_->findNext(search_->text().trimmed());
    });
    connect(model_, &ProgramTreeModel::found, this, [this](const QModelIndex& index) {
        searchStatus_->clear();
        for (QModelIndex p = index.parent(); p.isValid(); p = p.parent())
            tree_->expand(p);
        tree_->setCurrentIndex(index);
        tree_->scrollTo(index);
    });
    connect(model_, &ProgramTreeModel::notFound, this, [this](const QString& text) {
        searchStatus_->setText(tr("No program named like “%1”").arg(text));
    });

    connect(model_, &ProgramTreeModel::fetchFinished, this, &ProgramTreeView::onFetchFinished);
    connect(model_, &ProgramTreeModel::detailsReady, this, &ProgramTreeView::showDetails);
    connect(model_, &ProgramTreeModel::failed, this, &ReportView::failed);
    connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { onCurrentChanged(current); });
    model_->load();
}

void ProgramTreeView::onFetchFinished(const QModelIndex& parent) {
    // Open the first entry point and its first child so the tree shows its shape at once.
    const int depth = [&] {
        int d = 0;
        for (QModelIndex i = parent; i.isValid(); i = i.parent())
            ++d;
        return d;
    }();
    const QModelIndex first = model_->index(0, 0, parent);
    const bool onFirstPath = !parent.isValid() || parent.row() == 0;
    if (first.isValid() && onFirstPath && depth < 2) {
        // Fetch explicitly: a tree that is not visible yet expands without fetching.
        if (model_->canFetchMore(first))
            model_->fetchMore(first);
        tree_->expand(first);
        if (!parent.isValid() && !tree_->currentIndex().isValid())
            tree_->setCurrentIndex(first);
    }
    if (model_->fetchesInFlight() == 0)
        markReady();
}

void ProgramTreeView::onCurrentChanged(const QModelIndex& current) {
    if (const auto* s = model_->stepAt(current)) {
        session().state().selectedStep = s->id; // the Liveness view shows it when opened
        model_->setHighlightedProgram(s->programId);
        debugInfo_->showProgram(s->programId);
        const double clock = session().target().clockHz;
        details_->setHtml(
            QStringLiteral("<h3>%1</h3><table cellspacing=4>").arg(tr("Step %1").arg(s->id)) +
            row(tr("Kind"), QString::fromStdString(s->kind).toHtmlEscaped()) +
            row(tr("Phase"), QString::fromStdString(s->phase).toHtmlEscaped()) +
            (s->computeSetId ? row(tr("Compute set"), QString::number(*s->computeSetId))
                             : QString()) +
            row(tr("Estimated cycles"), formatCycles(s->estimatedCycles, clock)) +
            row(tr("Exchanged"), formatBytes(double(s->exchangeBytes))) +
            row(tr("Not-always-live"), formatBytes(double(s->notAlwaysLiveBytes))) +
            row(tr("Fullest tile (not-always-live)"),
                formatBytes(double(s->maxTileNotAlwaysLiveBytes))) +
            QStringLiteral("</table>"));
        return;
    }
    if (const auto* p = model_->programAt(current)) {
        session().state().selectedProgram = p->id;
        model_->setHighlightedProgram(p->id);
        debugInfo_->showProgram(p->id);
        details_->setHtml(
            QStringLiteral("<h3>%1</h3><p>%2</p>")
                .arg(QString::fromStdString(p->name.empty() ? p->kind : p->name).toHtmlEscaped(),
                     tr("Loading…")));
        model_->requestDetails(current);
    }
}

void ProgramTreeView::showEvent(QShowEvent* event) {
    ReportView::showEvent(event);
    // A program picked in the Execution Trace's flame: set its steps apart here too.
    model_->setHighlightedProgram(session().state().selectedProgram);
}

void ProgramTreeView::showDetails(const ProgramTreeModel::ProgramDetails& d) {
    const auto& p = d.program;
    const double clock = session().target().clockHz;
    QString html =
        QStringLiteral("<h3>%1</h3><table cellspacing=4>")
            .arg(QString::fromStdString(p.name.empty() ? p.kind : p.name).toHtmlEscaped());
    html += row(tr("Kind"), QString::fromStdString(p.kind).toHtmlEscaped());
    html += row(tr("Id"), QString::number(p.id));
    if (!d.entryPoint.isEmpty())
        html += row(tr("Entry point"), d.entryPoint.toHtmlEscaped());
    if (!p.debugPath.empty())
        html += row(tr("Debug path"), QString::fromStdString(p.debugPath).toHtmlEscaped());
    if (p.computeSetId)
        html +=
            row(tr("Compute set"),
                QStringLiteral("%1 (%2)").arg(d.computeSet.toHtmlEscaped()).arg(*p.computeSetId));
    if (p.repeatCount)
        html += row(tr("Repeat count"), formatCount(*p.repeatCount));
    if (p.calleeId)
        html += row(tr("Calls program"), QString::number(*p.calleeId));
    html += row(tr("Code"), formatBytes(double(p.codeBytes)));
    if (d.steps > 0) {
        html += row(tr("Lowered steps"), formatCount(d.steps));
        html += row(tr("Estimated cycles"), formatCycles(d.estimatedCycles, clock));
    }
    html += QStringLiteral("</table>");
    details_->setHtml(html);
}

} // namespace tilescope::gui
