#include "DebugInfoPane.hpp"

#include "Background.hpp"
#include "DebugInfoText.hpp"
#include "ReportSession.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QSizePolicy>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace tilescope::gui {

DebugInfoPane::DebugInfoPane(std::shared_ptr<ReportSession> session, QWidget* parent)
    : QWidget(parent), session_(std::move(session)) {
    title_ = new QLabel(tr("Debug information"));
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // One line whatever the text: a wrapping title would resize the views around the pane each
    // time a selection loads (the full text is in its tooltip).
    title_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    tree_ = new QTreeWidget;
    tree_->setColumnCount(2);
    tree_->setHeaderLabels({tr("Key"), tr("Value")});
    tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    tree_->header()->setStretchLastSection(true);
    tree_->setUniformRowHeights(true);
    tree_->setAlternatingRowColors(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title_);
    layout->addWidget(tree_, 1);
}

void DebugInfoPane::showOperation(std::int64_t operationId) {
    load(Kind::Operation, operationId);
}
void DebugInfoPane::showProgram(std::int64_t programId) {
    load(Kind::Program, programId);
}
void DebugInfoPane::showVariable(std::int64_t variableId) {
    load(Kind::Variable, variableId);
}

void DebugInfoPane::showStep(std::int64_t stepId) {
    load(Kind::Step, stepId);
}

void DebugInfoPane::clear() {
    load_.cancel();
    display({});
}

void DebugInfoPane::load(Kind kind, std::int64_t id) {
    title_->setText(tr("Debug information: loading…"));
    auto session = session_;
    load_.start<Loaded>(
        this,
        [session, kind, id] {
            return session->read([&](const report::ProfileReader& reader) {
                Loaded out;
                out.formatVersion = reader.file().formatVersion();
                switch (kind) {
                case Kind::Operation:
                    out.operations = {reader.operation(id)};
                    break;
                case Kind::Program:
                    out.operations = reader.operationsOfProgram(id);
                    break;
                case Kind::Step: {
                    const auto steps = reader.steps(id, 1);
                    if (!steps.empty() && steps.front().id == id)
                        out.operations = reader.operationsOfProgram(steps.front().programId);
                    break;
                }
                case Kind::Variable:
                    out.operations = reader.operationsOfVariable(id);
                    break;
                }
                return out;
            });
        },
        [this](Loaded loaded) { display(std::move(loaded)); },
        [this](const QString& error) {
            display({});
            title_->setText(tr("Debug information: %1").arg(error));
        });
}

void DebugInfoPane::display(Loaded loaded) {
    operations_ = std::move(loaded.operations);
    formatVersion_ = loaded.formatVersion;
    tree_->clear();
    if (operations_.empty()) {
        title_->setText(tr("Debug information: no operation created this."));
        emit shown();
        return;
    }
    // Innermost operation (the PopLibs call) first: it is what the user looks for.
    for (auto it = operations_.rbegin(); it != operations_.rend(); ++it) {
        const auto& op = *it;
        const QString summary = QString::fromStdString(debugInfoSummary(op));
        const QString tooltip = QString::fromStdString(debugInfoTooltip(op));
        auto* top = new QTreeWidgetItem(
            tree_, {QString::fromStdString(op.name),
                    QStringLiteral("%1 · %2").arg(QString::fromStdString(op.layer),
                                                  QString::fromStdString(op.debugPath))});
        top->setToolTip(0, tooltip);
        top->setToolTip(1, tooltip);
        auto* call = new QTreeWidgetItem(top, {tr("call"), summary});
        call->setToolTip(1, summary);
        std::vector<QTreeWidgetItem*> parents{top};
        for (const auto& row : debugInfoRows(op.debugJson)) {
            parents.resize(static_cast<std::size_t>(row.depth) + 1);
            auto* item = new QTreeWidgetItem(parents.back(), {QString::fromStdString(row.key),
                                                              QString::fromStdString(row.value)});
            item->setToolTip(1, QString::fromStdString(row.value));
            parents.push_back(item);
        }
        const QString recorded = QString::fromStdString(debugInfoRecorded(op, formatVersion_));
        auto* recordedItem = new QTreeWidgetItem(top, {tr("recorded"), recorded});
        recordedItem->setToolTip(1, recorded);
    }
    tree_->expandToDepth(1);
    title_->setText(tr("Debug information: %1")
                        .arg(QString::fromStdString(debugInfoSummary(operations_.back()))));
    title_->setToolTip(QString::fromStdString(debugInfoTooltip(operations_.back())));
    emit shown();
}

} // namespace tilescope::gui
