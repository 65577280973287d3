#include "TraceCompareView.hpp"

#include "HostTraceSession.hpp"
#include "TimelineCanvas.hpp"
#include "TimelineModel.hpp"
#include "TraceComparisonModel.hpp"
#include "core/Format.hpp"
#include "tables/SortableTable.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace tilescope::gui {
namespace {

/// A flame with its title ("A (baseline): file" or "B: file").
QWidget* titled(const QString& title, TimelineCanvas* canvas) {
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* label = new QLabel(title);
    label->setStyleSheet(QStringLiteral("font-weight: bold"));
    layout->addWidget(label);
    layout->addWidget(canvas, 1);
    return box;
}

} // namespace

TraceCompareView::TraceCompareView(std::shared_ptr<HostTraceSession> a,
                                   std::shared_ptr<HostTraceSession> b, QWidget* parent)
    : QWidget(parent), timelineA_(std::make_unique<TimelineModel>(TimelineModel::HostFiles{a})),
      timelineB_(std::make_unique<TimelineModel>(TimelineModel::HostFiles{b})),
      comparison_(std::make_unique<TraceComparisonModel>(a, b)) {
    // One flame per process, threads merged: the shape of each run at a glance.
    timelineA_->setFlameMode(TimelineModel::FlameMode::PerProcess);
    timelineB_->setFlameMode(TimelineModel::FlameMode::PerProcess);
    canvasA_ = new TimelineCanvas(*timelineA_);
    canvasB_ = new TimelineCanvas(*timelineB_);
    canvasA_->setObjectName(QStringLiteral("flameA"));
    canvasB_->setObjectName(QStringLiteral("flameB"));

    table_ = newSortableTable(*comparison_, this);
    table_->setObjectName(QStringLiteral("traceComparison"));
    table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    auto* proxy = static_cast<QSortFilterProxyModel*>(table_->model());
    proxy->setFilterKeyColumn(TraceComparisonModel::Name);
    proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    auto* filter = new QLineEdit;
    filter->setPlaceholderText(tr("Filter by event name"));
    filter->setClearButtonEnabled(true);
    connect(filter, &QLineEdit::textChanged, proxy, &QSortFilterProxyModel::setFilterFixedString);
    summary_ = new QLabel(tr("Comparing event names…"));

    auto* lower = new QWidget;
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(summary_);
    lowerLayout->addWidget(filter);
    lowerLayout->addWidget(table_, 1);

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(titled(tr("A (baseline): %1").arg(a->fileName()), canvasA_));
    split->addWidget(titled(tr("B: %1").arg(b->fileName()), canvasB_));
    split->addWidget(lower);
    // The flames get most of the height at first (the table's size hint would take it all).
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 3);
    split->setSizes({3000, 3000, 3000});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(split);

    connect(comparison_.get(), &TraceComparisonModel::loaded, this, [this] {
        table_->resizeColumnsToContents();
        table_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Interactive);
        table_->setColumnWidth(0, std::max(table_->columnWidth(0), 220));
        updateSummary();
    });
    connect(comparison_.get(), &TraceComparisonModel::failed, this, [this](const QString& m) {
        summary_->setText(m);
        emit failed(m);
    });
    connect(timelineA_.get(), &TimelineModel::failed, this, &TraceCompareView::failed);
    connect(timelineB_.get(), &TimelineModel::failed, this, &TraceCompareView::failed);
    comparison_->compute();
}

TraceCompareView::~TraceCompareView() = default;

bool TraceCompareView::isReady() const {
    const auto drawn = [](const TimelineModel& m, const TimelineCanvas* c) {
        return m.empty() || (c->framesRendered() > 0 && m.hasWindow() && m.isIdle());
    };
    return comparison_->isLoaded() && drawn(*timelineA_, canvasA_) && drawn(*timelineB_, canvasB_);
}

void TraceCompareView::updateSummary() {
    const auto& c = comparison_->comparison();
    std::int64_t totalA = 0, totalB = 0;
    for (const auto& e : c.events) {
        totalA += std::int64_t(e.totalNs.source);
        totalB += std::int64_t(e.totalNs.target);
    }
    summary_->setText(tr("%1 event names: %2 in both, %3 only in B, %4 only in A · time in "
                         "events %5 → %6")
                          .arg(formatCount(std::int64_t(c.events.size())))
                          .arg(formatCount(std::int64_t(c.matched)))
                          .arg(formatCount(std::int64_t(c.added)))
                          .arg(formatCount(std::int64_t(c.removed)))
                          .arg(formatDuration(double(totalA)), formatDuration(double(totalB))));
}

} // namespace tilescope::gui
