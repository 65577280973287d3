#include "ReportPane.hpp"

#include "core/ReportSession.hpp"
#include "execution/ExecutionView.hpp"
#include "insights/InsightsView.hpp"
#include "liveness/LivenessView.hpp"
#include "memory/MemoryView.hpp"
#include "operations/OperationsView.hpp"
#include "programs/ProgramTreeView.hpp"
#include "summary/SummaryView.hpp"

#include <QHBoxLayout>
#include <QListWidget>
#include <QStackedWidget>

namespace tilescope::gui {
namespace {

struct ViewEntry {
    const char* name;
    const char* title;
};
const ViewEntry kViews[] = {{"summary", "Summary"},       {"insights", "Insights"},
                            {"memory", "Memory"},         {"liveness", "Liveness"},
                            {"programs", "Program Tree"}, {"execution", "Execution Trace"},
                            {"operations", "Operations"}};

} // namespace

QStringList ReportPane::viewNames() {
    QStringList names;
    for (const ViewEntry& v : kViews)
        names << QLatin1String(v.name);
    return names;
}

QStringList ReportPane::viewTitles() {
    QStringList titles;
    for (const ViewEntry& v : kViews)
        titles << tr(v.title);
    return titles;
}

ReportPane::ReportPane(std::shared_ptr<ReportSession> session, QWidget* parent)
    : QWidget(parent), session_(std::move(session)) {
    rail_ = new QListWidget;
    const QStringList names = viewNames(), titles = viewTitles();
    for (int i = 0; i < names.size(); ++i) {
        auto* item = new QListWidgetItem(titles[i], rail_);
        item->setData(Qt::UserRole, names[i]);
        item->setToolTip(tr("%1 (Ctrl+%2)").arg(titles[i]).arg(i + 1));
    }
    rail_->setFixedWidth(rail_->sizeHintForColumn(0) + 40);
    rail_->setSpacing(2);
    rail_->setFrameShape(QFrame::NoFrame);
    // The rail takes the window colour so it reads as navigation rather than as a list of data.
    rail_->setBackgroundRole(QPalette::Window);
    stack_ = new QStackedWidget;
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(rail_);
    layout->addWidget(stack_, 1);
    connect(rail_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0)
            showView(rail_->item(row)->data(Qt::UserRole).toString());
    });
}

ReportView* ReportPane::createView(const QString& name) {
    if (name == QLatin1String("summary"))
        return new SummaryView(session_);
    if (name == QLatin1String("insights"))
        return new InsightsView(session_);
    if (name == QLatin1String("memory"))
        return new MemoryView(session_);
    if (name == QLatin1String("liveness"))
        return new LivenessView(session_);
    if (name == QLatin1String("programs"))
        return new ProgramTreeView(session_);
    if (name == QLatin1String("execution"))
        return new ExecutionView(session_);
    if (name == QLatin1String("operations"))
        return new OperationsView(session_);
    return nullptr;
}

ReportView* ReportPane::showView(const QString& name) {
    ReportView* view = nullptr;
    if (auto it = views_.find(name); it != views_.end()) {
        view = it->second;
    } else {
        view = createView(name);
        if (!view)
            return nullptr;
        views_[name] = view;
        stack_->addWidget(view);
        connect(view, &ReportView::failed, this, &ReportPane::viewFailed);
    }
    stack_->setCurrentWidget(view);
    session_->state().currentView = name;
    const int row = int(viewNames().indexOf(name));
    if (rail_->currentRow() != row) {
        const QSignalBlocker block(rail_);
        rail_->setCurrentRow(row);
    }
    return view;
}

ReportView* ReportPane::currentView() const {
    return qobject_cast<ReportView*>(stack_->currentWidget());
}

} // namespace tilescope::gui
