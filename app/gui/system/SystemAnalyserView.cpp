#include "SystemAnalyserView.hpp"

#include "CallTreeModel.hpp"
#include "DeviceTraceSession.hpp"
#include "EventSearchModel.hpp"
#include "HostTraceSession.hpp"
#include "TimelineCanvas.hpp"
#include "TimelineModel.hpp"
#include "core/Background.hpp"
#include "core/Format.hpp"
#include "tables/SortableTable.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>

namespace tilescope::gui {

namespace {

/// "N events dropped on thread T" of every file (prefixed with its name when several are open).
QStringList dropWarnings(const std::vector<std::shared_ptr<HostTraceSession>>& files) {
    QStringList out;
    for (const auto& file : files)
        for (const QString& warning : file->dropWarnings())
            out << (files.size() > 1 ? file->fileName() + QStringLiteral(": ") + warning : warning);
    return out;
}

} // namespace

SystemAnalyserView::SystemAnalyserView(std::vector<std::shared_ptr<HostTraceSession>> files,
                                       std::vector<std::shared_ptr<DeviceTraceSession>> devices,
                                       QWidget* parent)
    : QWidget(parent), files_(std::move(files)),
      timeline_(std::make_unique<TimelineModel>(files_, std::move(devices))),
      callTree_(std::make_unique<CallTreeModel>(files_)),
      search_(std::make_unique<EventSearchModel>(files_)) {
    tabs_ = new QTabWidget;
    tabs_->addTab(buildTimelineTab(), tr("Timeline"));
    tabs_->addTab(buildCallTreeTab(), tr("Call Tree"));
    tabs_->addTab(buildDetailsTab(), tr("Details"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tabs_);
    status_->setText(dropWarnings(files_).join(QStringLiteral("   ·   ")));
    connect(timeline_.get(), &TimelineModel::failed, this, &SystemAnalyserView::failed);
    connect(callTree_.get(), &CallTreeModel::failed, this, &SystemAnalyserView::failed);
    // The whole trace's call tree scans every event: computed when first asked for.
    connect(tabs_, &QTabWidget::currentChanged, this, [this](int tab) {
        if (tab == 1 && !callTree_->isLoaded() && !callTree_->isComputing())
            callTree_->compute();
    });
}

SystemAnalyserView::~SystemAnalyserView() = default;

QStringList SystemAnalyserView::viewNames() {
    return {QStringLiteral("timeline"), QStringLiteral("calltree"), QStringLiteral("details")};
}

bool SystemAnalyserView::showView(const QString& name) {
    const int tab = int(viewNames().indexOf(name));
    if (tab < 0)
        return false;
    tabs_->setCurrentIndex(tab);
    if (tab == 1 && !callTree_->isLoaded() && !callTree_->isComputing())
        callTree_->compute();
    return true;
}

void SystemAnalyserView::showRelativeRange(std::int64_t fromNs, std::int64_t toNs) {
    canvas_->showRange(timeline_->beginNs() + fromNs, timeline_->beginNs() + toNs);
}

bool SystemAnalyserView::isReady() const {
    if (tabs_->currentIndex() == 1)
        return callTree_->isLoaded() && !callTree_->isComputing();
    if (tabs_->currentIndex() == 2)
        return true; // details are read when the files open
    return timeline_->empty() ||
           (canvas_->framesRendered() > 0 && timeline_->hasWindow() && timeline_->isIdle());
}

void SystemAnalyserView::setFlameMode(TimelineModel::FlameMode mode) {
    flameMode_->setCurrentIndex(int(mode));
    timeline_->setFlameMode(mode);
}

void SystemAnalyserView::setChartMode(TimelineCanvas::ChartMode mode) {
    chartMode_->setCurrentIndex(int(mode));
    canvas_->setChartMode(mode);
}

QString SystemAnalyserView::settingsKey(const char* name) const {
    // The files' paths, encoded so that their slashes do not nest settings groups.
    QStringList paths;
    for (const auto& f : files_)
        paths << QString::fromStdString(f->path());
    return QStringLiteral("systemAnalyser/%1/%2")
        .arg(QString::fromLatin1(QUrl::toPercentEncoding(paths.join(QLatin1Char('|')))),
             QLatin1String(name));
}

QWidget* SystemAnalyserView::buildTimelineTab() {
    auto* page = new QWidget;
    searchText_ = new QLineEdit;
    searchText_->setPlaceholderText(tr("Search event names (Enter: next)"));
    searchText_->setClearButtonEnabled(true);
    regex_ = new QCheckBox(tr("Regex"));
    auto* previous = new QPushButton(tr("Previous"));
    auto* next = new QPushButton(tr("Next"));
    auto* relative = new QCheckBox(tr("Relative time"));
    relative->setChecked(true);
    auto* expand = new QPushButton(tr("Expand all"));
    auto* collapse = new QPushButton(tr("Collapse all"));
    flameMode_ = new QComboBox;
    flameMode_->addItem(tr("Flame per thread"));
    flameMode_->addItem(tr("Flame per process (threads merged)"));
    flameMode_->setToolTip(tr("Draw each thread's flame, or one flame per process with all its "
                              "threads merged"));
    chartMode_ = new QComboBox;
    chartMode_->addItem(tr("Graphs as lines"));
    chartMode_->addItem(tr("Graphs as stacked areas"));
    chartMode_->setToolTip(tr("Draw each series of a counter graph as a line, or stack the "
                              "series as areas"));
    status_ = new QLabel;
    auto* bar = new QHBoxLayout;
    bar->addWidget(searchText_, 1);
    bar->addWidget(regex_);
    bar->addWidget(previous);
    bar->addWidget(next);
    bar->addSpacing(12);
    bar->addWidget(relative);
    bar->addWidget(expand);
    bar->addWidget(collapse);
    bar->addWidget(flameMode_);
    bar->addWidget(chartMode_);

    canvas_ = new TimelineCanvas(*timeline_);
    results_ = newSortableTable(*search_, this);
    results_->horizontalHeader()->setStretchLastSection(true);
    // The results keep their header and a few rows whatever the splitter is given: a header cut
    // in half reads as a broken table.
    results_->setMinimumHeight(results_->horizontalHeader()->sizeHint().height() +
                               3 * results_->verticalHeader()->defaultSectionSize() +
                               2 * results_->frameWidth());
    eventDetails_ = new QPlainTextEdit;
    eventDetails_->setObjectName(QStringLiteral("eventDetails"));
    eventDetails_->setReadOnly(true);
    eventDetails_->setPlaceholderText(
        tr("Click an event to see its details and tracepoint metadata"));
    auto* lower = new QSplitter(Qt::Horizontal);
    lower->addWidget(results_);
    lower->addWidget(eventDetails_);
    lower->setStretchFactor(0, 3);
    lower->setStretchFactor(1, 2);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(canvas_);
    split->addWidget(lower);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    split->setCollapsible(1, false);

    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
    layout->addWidget(status_);

    connect(searchText_, &QLineEdit::returnPressed, this, [this] {
        if (search_->hits().empty() || search_->isSearching())
            runSearch();
        else
            search_->next();
    });
    connect(searchText_, &QLineEdit::textChanged, this, &SystemAnalyserView::runSearch);
    connect(regex_, &QCheckBox::toggled, this, &SystemAnalyserView::runSearch);
    connect(next, &QPushButton::clicked, search_.get(), &EventSearchModel::next);
    connect(previous, &QPushButton::clicked, search_.get(), &EventSearchModel::previous);
    connect(search_.get(), &EventSearchModel::currentChanged, this, &SystemAnalyserView::showHit);
    connect(search_.get(), &EventSearchModel::finished, this, &SystemAnalyserView::updateStatus);
    connect(search_.get(), &EventSearchModel::failed, this,
            [this](const QString& m) { status_->setText(m); });
    connect(results_, &QTableView::activated, this, [this](const QModelIndex& index) {
        auto* proxy = static_cast<QSortFilterProxyModel*>(results_->model());
        search_->setCurrent(proxy->mapToSource(index).row());
    });
    connect(relative, &QCheckBox::toggled, canvas_, &TimelineCanvas::setRelativeTime);
    // `activated` is the user's choice only: remembered for these files.
    connect(flameMode_, &QComboBox::activated, this, [this](int index) {
        setFlameMode(TimelineModel::FlameMode(index));
        QSettings().setValue(settingsKey("flame"), index);
    });
    connect(chartMode_, &QComboBox::activated, this, [this](int index) {
        setChartMode(TimelineCanvas::ChartMode(index));
        QSettings().setValue(settingsKey("chart"), index);
    });
    const QSettings settings;
    setFlameMode(TimelineModel::FlameMode(
        std::clamp(settings.value(settingsKey("flame"), 0).toInt(), 0, 1)));
    setChartMode(TimelineCanvas::ChartMode(
        std::clamp(settings.value(settingsKey("chart"), 0).toInt(), 0, 1)));
    connect(expand, &QPushButton::clicked, this, [this] { timeline_->setAllExpanded(true); });
    connect(collapse, &QPushButton::clicked, this, [this] { timeline_->setAllExpanded(false); });
    connect(
        canvas_, &TimelineCanvas::rangeSelected, this, [this](std::int64_t from, std::int64_t to) {
            callTree_->compute(std::pair{from, to});
            status_->setText(tr("Selection %1: computing…").arg(formatDuration(double(to - from))));
        });
    connect(callTree_.get(), &CallTreeModel::loaded, this, &SystemAnalyserView::updateStatus);
    connect(canvas_, &TimelineCanvas::eventSelected, this, &SystemAnalyserView::showSelectedEvent);
    return page;
}

QString SystemAnalyserView::eventDetailsText() const {
    return eventDetails_->toPlainText();
}

void SystemAnalyserView::showSelectedEvent() {
    const int request = ++eventRequest_;
    const auto selected = canvas_->selectedEvent();
    if (!selected || selected->row < 0 || selected->row >= int(timeline_->rows().size())) {
        eventDetails_->clear();
        return;
    }
    const auto& row = timeline_->rows()[std::size_t(selected->row)];
    QStringList lines;
    lines << timeline_->eventName(selected->row, selected->nameId);
    lines << tr("Row: %1").arg(row.label);
    lines << tr("Start: %1").arg(canvas_->formatTime(selected->startNs));
    lines << tr("Duration: %1").arg(formatDuration(double(selected->endNs - selected->startNs)));
    const QString header = lines.join(QLatin1Char('\n'));
    // Only host thread tracks hold pvti events with metadata (device boxes and async slices
    // have ids of their own tables).
    if (row.kind != TimelineModel::RowKind::Track || selected->eventId == 0) {
        eventDetails_->setPlainText(header);
        return;
    }
    eventDetails_->setPlainText(header + tr("\n\nReading metadata…"));
    const auto file = files_[std::size_t(row.file)];
    const std::int64_t eventId = selected->eventId;
    runInBackground<QString>(
        this, [file, eventId] { return file->metadataText(eventId); },
        [this, request, header](const QString& metadata) {
            if (request != eventRequest_)
                return;
            eventDetails_->setPlainText(header + QStringLiteral("\n\n") +
                                        (metadata.isEmpty()
                                             ? tr("No tracepoint metadata")
                                             : tr("Tracepoint metadata:\n") + metadata));
        },
        [this, request, header](const QString& message) {
            if (request == eventRequest_)
                eventDetails_->setPlainText(header + QStringLiteral("\n\n") + message);
        });
}

QWidget* SystemAnalyserView::buildCallTreeTab() {
    auto* page = new QWidget;
    treeStatus_ = new QLabel;
    tree_ = new QTreeView;
    auto* treeProxy = new QSortFilterProxyModel(this);
    treeProxy->setSourceModel(callTree_.get());
    treeProxy->setSortRole(Qt::UserRole);
    tree_->setModel(treeProxy);
    tree_->setSortingEnabled(true);
    tree_->sortByColumn(CallTreeModel::Total, Qt::DescendingOrder);
    tree_->setAlternatingRowColors(true);
    tree_->header()->setStretchLastSection(false);
    tree_->header()->resizeSection(0, 320);

    auto* filter = new QLineEdit;
    filter->setPlaceholderText(tr("Filter statistics by name"));
    filter->setClearButtonEnabled(true);
    QTableView* stats = newSortableTable(callTree_->statistics(), this);
    stats->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    auto* statsProxy = static_cast<QSortFilterProxyModel*>(stats->model());
    statsProxy->setFilterKeyColumn(0);
    statsProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(filter, &QLineEdit::textChanged, statsProxy,
            &QSortFilterProxyModel::setFilterFixedString);
    auto* wholeTrace = new QPushButton(tr("Whole trace"));
    connect(wholeTrace, &QPushButton::clicked, this, [this] {
        canvas_->clearSelection();
        callTree_->compute();
    });

    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(filter);
    rightLayout->addWidget(stats, 1);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(tree_);
    split->addWidget(right);
    auto* top = new QHBoxLayout;
    top->addWidget(treeStatus_, 1);
    top->addWidget(wholeTrace);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    connect(callTree_.get(), &CallTreeModel::loaded, this, [this] { tree_->expandToDepth(0); });
    return page;
}

// One group per open host trace: its file details, counts, and what a Chrome trace import
// repaired (events reordered, unmatched E dropped, ...), so that a user sees how the file was made.
QWidget* SystemAnalyserView::buildDetailsTab() {
    auto* tree = new QTreeWidget;
    tree->setObjectName(QStringLiteral("fileDetails"));
    tree->setColumnCount(2);
    tree->setHeaderLabels({tr("Property"), tr("Value")});
    tree->setRootIsDecorated(true);
    for (const auto& file : files_) {
        auto* top = new QTreeWidgetItem(tree, {file->fileName(), QString()});
        for (const auto& [label, value] : file->details())
            new QTreeWidgetItem(top, {label, value});
        const auto& c = file->counts();
        new QTreeWidgetItem(top, {tr("Threads"), formatCount(c.threads)});
        new QTreeWidgetItem(top, {tr("Events"), formatCount(c.events)});
        new QTreeWidgetItem(top, {tr("Counter samples"), formatCount(c.samples)});
    }
    tree->expandAll();
    tree->resizeColumnToContents(0);
    return tree;
}

void SystemAnalyserView::runSearch() {
    search_->search(searchText_->text(), regex_->isChecked());
}

void SystemAnalyserView::showHit(int index) {
    const auto& hit = search_->hits()[std::size_t(index)];
    const auto& rows = timeline_->rows();
    int rowIndex = -1;
    for (int r = 0; r < int(rows.size()); ++r)
        if (rows[std::size_t(r)].kind == TimelineModel::RowKind::Track &&
            rows[std::size_t(r)].file == hit.file &&
            rows[std::size_t(r)].threadId == hit.event.threadId &&
            rows[std::size_t(r)].depth == hit.event.depth)
            rowIndex = r;
    // Open the row's ancestors so the hit is on screen.
    for (int p = rowIndex >= 0 ? rows[std::size_t(rowIndex)].parent : -1; p >= 0;
         p = rows[std::size_t(p)].parent)
        timeline_->setExpanded(p, true);
    const std::int64_t start = hit.event.startNs;
    const std::int64_t end = std::max(hit.event.endNs.value_or(start), start + 1);
    canvas_->setHighlight(rowIndex, start, end);
    // Keep the zoom when the event fits; otherwise frame it.
    const std::int64_t span = canvas_->visibleToNs() - canvas_->visibleFromNs();
    const std::int64_t width = std::max(span, (end - start) * 3);
    const std::int64_t centre = start + (end - start) / 2;
    canvas_->showRange(centre - width / 2, centre + width / 2);
    results_->selectRow(static_cast<QSortFilterProxyModel*>(results_->model())
                            ->mapFromSource(search_->index(index, 0))
                            .row());
    updateStatus();
}

void SystemAnalyserView::updateStatus() {
    QStringList parts;
    if (!searchText_->text().isEmpty())
        parts << tr("%1%2 hits%3")
                     .arg(search_->current() >= 0 ? tr("%1 of ").arg(search_->current() + 1)
                                                  : QString())
                     .arg(formatCount(std::int64_t(search_->hits().size())))
                     .arg(search_->truncated()
                              ? tr(" (first %1 shown)").arg(EventSearchModel::kMaxHits)
                              : QString());
    const auto& t = callTree_->tree();
    if (canvas_->selection() && callTree_->isLoaded())
        parts << tr("Selection %1: %2 events, total duration %3")
                     .arg(formatDuration(double(t.toNs - t.fromNs)),
                          formatCount(std::int64_t(t.events)), formatDuration(double(t.totalNs)));
    parts << dropWarnings(files_); // lost events stay in sight, whatever else the line says
    status_->setText(parts.join(QStringLiteral("   ·   ")));
    treeStatus_->setText(tr("%1 events over %2 (%3), total duration %4")
                             .arg(formatCount(std::int64_t(t.events)),
                                  formatDuration(double(t.toNs - t.fromNs)),
                                  canvas_->selection() ? tr("selected range") : tr("whole trace"),
                                  formatDuration(double(t.totalNs))));
}

} // namespace tilescope::gui
