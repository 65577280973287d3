#include "ComparePane.hpp"

#include "CompareSession.hpp"
#include "CompareSummaryView.hpp"
#include "MemoryCompareView.hpp"
#include "OperationCompareModel.hpp"
#include "ProgramCompareModel.hpp"
#include "StepCompareView.hpp"
#include "StructureCompareView.hpp"

#include <QHBoxLayout>
#include <QListWidget>
#include <QStackedWidget>

namespace tilescope::gui {
namespace {

struct ViewEntry {
    const char* name;
    const char* title;
};
const ViewEntry kViews[] = {{"summary", "Summary"},       {"memory", "Memory"},
                            {"liveness", "Liveness"},     {"programs", "Program Tree"},
                            {"operations", "Operations"}, {"execution", "Execution Trace"}};

} // namespace

QStringList ComparePane::viewNames() {
    QStringList names;
    for (const ViewEntry& v : kViews)
        names << QLatin1String(v.name);
    return names;
}

QStringList ComparePane::viewTitles() {
    QStringList titles;
    for (const ViewEntry& v : kViews)
        titles << tr(v.title);
    return titles;
}

ComparePane::ComparePane(std::shared_ptr<CompareSession> session, QWidget* parent)
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

CompareView* ComparePane::createView(const QString& name) {
    if (name == QLatin1String("summary"))
        return new CompareSummaryView(session_);
    if (name == QLatin1String("memory"))
        return new MemoryCompareView(session_);
    if (name == QLatin1String("liveness"))
        return new StepCompareView(session_, false);
    if (name == QLatin1String("execution"))
        return new StepCompareView(session_, true);
    if (name == QLatin1String("programs"))
        return new StructureCompareView(session_, new ProgramCompareModel(session_),
                                        tr("Program tree"), -1);
    if (name == QLatin1String("operations"))
        return new StructureCompareView(session_, new OperationCompareModel(session_),
                                        tr("Operations"), OperationCompareModel::Estimated + 2);
    return nullptr;
}

CompareView* ComparePane::showView(const QString& name) {
    CompareView* view = nullptr;
    if (auto it = views_.find(name); it != views_.end()) {
        view = it->second;
    } else {
        view = createView(name);
        if (!view)
            return nullptr;
        views_[name] = view;
        stack_->addWidget(view);
        connect(view, &CompareView::failed, this, &ComparePane::viewFailed);
    }
    stack_->setCurrentWidget(view);
    const int row = int(viewNames().indexOf(name));
    if (rail_->currentRow() != row) {
        const QSignalBlocker block(rail_);
        rail_->setCurrentRow(row);
    }
    return view;
}

CompareView* ComparePane::currentView() const {
    return qobject_cast<CompareView*>(stack_->currentWidget());
}

} // namespace tilescope::gui
