#include "RailPane.hpp"

#include "RailView.hpp"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QListWidget>
#include <QStackedWidget>

namespace tilescope::gui {

QStringList RailPane::entryNames(std::span<const Entry> entries) {
    QStringList names;
    for (const Entry& e : entries)
        names << QLatin1String(e.name);
    return names;
}

QStringList RailPane::entryTitles(std::span<const Entry> entries, const char* context) {
    QStringList titles;
    for (const Entry& e : entries)
        titles << QCoreApplication::translate(context, e.title);
    return titles;
}

RailPane::RailPane(const QStringList& names, const QStringList& titles, QWidget* parent)
    : QWidget(parent), names_(names) {
    rail_ = new QListWidget;
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

RailView* RailPane::showView(const QString& name) {
    RailView* view = nullptr;
    if (auto it = views_.find(name); it != views_.end()) {
        view = it->second;
    } else {
        view = createView(name);
        if (!view)
            return nullptr;
        views_[name] = view;
        stack_->addWidget(view);
        connect(view, &RailView::failed, this, &RailPane::viewFailed);
    }
    stack_->setCurrentWidget(view);
    viewShown(name);
    const int row = int(names_.indexOf(name));
    if (rail_->currentRow() != row) {
        const QSignalBlocker block(rail_);
        rail_->setCurrentRow(row);
    }
    return view;
}

RailView* RailPane::currentView() const {
    return qobject_cast<RailView*>(stack_->currentWidget());
}

} // namespace tilescope::gui
