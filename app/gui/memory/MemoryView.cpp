#include "MemoryView.hpp"

#include "TileComputeSetsModel.hpp"
#include "TileDetailsModel.hpp"
#include "TileExchangesModel.hpp"
#include "TileMapWidget.hpp"
#include "TileMemoryCanvas.hpp"
#include "TileMemoryModel.hpp"
#include "TileOrderBox.hpp"
#include "TileVariablesModel.hpp"
#include "TileVerticesModel.hpp"
#include "VariablesGraphWidget.hpp"
#include "core/Background.hpp"
#include "core/Format.hpp"
#include "core/ReportSession.hpp"
#include "tables/ReportTableModel.hpp"
#include "tables/SortableTable.hpp"
#include "tables/TableControls.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>

namespace tilescope::gui {
namespace {

enum Tab {
    DetailsTab,
    VerticesTab,
    ComputeSetsTab,
    ExchangesTab,
    VariablesTab,
    VariablesGraphTab,
    TileMapTab
};

/// Variables the graph shows until the user picks some: the largest few.
constexpr int kDefaultGraphedVariables = 3;

/// The body of a table tab: a filter box and a sortable table over `model`.
QWidget* tablePage(RecordTableModel& model, QObject* owner, const QString& filter) {
    QTableView* table = newSortableTable(model, owner);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setTextElideMode(Qt::ElideMiddle);
    table->setWordWrap(false);
    QObject::connect(&model, &QAbstractItemModel::modelReset, table,
                     [table] { table->resizeColumnsToContents(); });
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(newTableFilter(table, filter));
    layout->addWidget(table);
    return page;
}

} // namespace

MemoryView::MemoryView(std::shared_ptr<ReportSession> session, QWidget* parent)
    : ReportView(std::move(session), parent) {
    ViewState& state = this->session().state();
    model_ = new TileMemoryModel(sharedSession(), this);
    model_->setBreakdown(TileMemoryModel::Breakdown(state.memoryBreakdown));
    model_->setIncludeGaps(state.includeGaps);
    details_ = new TileDetailsModel(*model_, this);

    breakdown_ = new QComboBox;
    breakdown_->addItems({tr("Total"), tr("By category"), tr("By region"), tr("By liveness")});
    breakdown_->setCurrentIndex(state.memoryBreakdown);
    breakdown_->setToolTip(tr("How each tile's bytes are split in the chart"));
    includeGaps_ = new QCheckBox(tr("Include gaps"));
    includeGaps_->setChecked(state.includeGaps);
    includeGaps_->setToolTip(tr("Count the unusable gaps between memory regions as used"));
    tileOrder_ = new TileOrderBox;
    showMax_ = new QCheckBox(tr("Show max memory"));
    showMax_->setChecked(state.showMaxMemory);
    zoomRange_ = new QLineEdit;
    zoomRange_->setPlaceholderText(tr("Zoom to tiles, e.g. 0-1471"));
    zoomRange_->setClearButtonEnabled(true);
    selectTiles_ = new QLineEdit;
    selectTiles_->setPlaceholderText(tr("Select tiles, e.g. 3, 10-20"));
    selectTiles_->setClearButtonEnabled(true);

    auto* toolbar = new QHBoxLayout;
    toolbar->addWidget(new QLabel(tr("Show:")));
    toolbar->addWidget(breakdown_);
    toolbar->addWidget(includeGaps_);
    toolbar->addWidget(showMax_);
    toolbar->addWidget(tileOrder_);
    toolbar->addSpacing(12);
    toolbar->addWidget(zoomRange_, 1);
    toolbar->addWidget(selectTiles_, 1);

    canvas_ = new TileMemoryCanvas(*model_);
    canvas_->setShowMaxMemory(state.showMaxMemory);
    canvas_->setSelection(state.selectedTiles);

    selectionLabel_ = new QLabel;
    detailsTable_ = newSortableTable(*details_, this); // report order until the user sorts
    detailsTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The category names take the spare width; sections exist only once the model has columns.
    connect(details_, &QAbstractItemModel::modelReset, this, [this] {
        if (details_->columnCount() > 0)
            detailsTable_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    });

    auto* detailsPane = new QWidget;
    auto* detailsLayout = new QVBoxLayout(detailsPane);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->addWidget(selectionLabel_);
    detailsLayout->addWidget(detailsTable_);

    vertices_ = new TileVerticesModel(sharedSession(), this);
    exchanges_ = new TileExchangesModel(sharedSession(), kTableRows, this);
    computeSets_ = new TileComputeSetsModel(sharedSession(), this);
    variables_ = new TileVariablesModel(sharedSession(), kTableRows, this);
    verticesLabel_ = new QLabel;
    computeSetsLabel_ = new QLabel;
    variablesLabel_ = new QLabel(tr("Loading…"));
    exchangesLabel_ = new QLabel(tr("Loading…"));
    variablesGraph_ = new VariablesGraphWidget;
    tileMap_ = new TileMapWidget(*model_);
    tileMap_->setSelection(state.selectedTiles);
    tabs_ = new QTabWidget;
    tabs_->addTab(detailsPane, tr("Details"));
    // A table tab holds its status line at once; the filter and table are built the first time
    // the tab is shown (see loadTab).
    auto lazyTab = [this](const QString& title, QLabel* label, RecordTableModel* model,
                          const QString& filter) {
        auto* holder = new QWidget;
        auto* layout = new QVBoxLayout(holder);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(label);
        pendingPages_[tabs_->addTab(holder, title)] = [this, model, filter] {
            return tablePage(*model, this, filter);
        };
    };
    lazyTab(tr("Vertices"), verticesLabel_, vertices_, tr("Filter vertices"));
    lazyTab(tr("Compute sets"), computeSetsLabel_, computeSets_, tr("Filter compute sets"));
    lazyTab(tr("Exchanges"), exchangesLabel_, exchanges_, tr("Filter exchanges"));
    lazyTab(tr("Variables"), variablesLabel_, variables_, tr("Filter variables"));
    tabs_->addTab(variablesGraph_, tr("Variables graph"));
    tabs_->addTab(tileMap_, tr("Tile map"));

    // The tab the user left (or --memory-tab asked for); it loads once the memory is read.
    tabs_->setCurrentIndex(std::clamp(state.memoryTab, 0, tabs_->count() - 1));
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(canvas_);
    splitter->addWidget(tabs_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(toolbar);
    layout->addWidget(splitter, 1);

    connect(breakdown_, &QComboBox::currentIndexChanged, this, [this](int index) {
        this->session().state().memoryBreakdown = index;
        model_->setBreakdown(TileMemoryModel::Breakdown(index));
    });
    connect(includeGaps_, &QCheckBox::toggled, this, [this](bool on) {
        this->session().state().includeGaps = on;
        model_->setIncludeGaps(on);
    });
    connect(showMax_, &QCheckBox::toggled, this, [this](bool on) {
        this->session().state().showMaxMemory = on;
        canvas_->setShowMaxMemory(on);
    });
    connect(tileOrder_, &QComboBox::currentIndexChanged, this, [this](int index) {
        this->session().state().tileOrder = index;
        model_->setTileOrder(TileMemoryModel::TileOrder(index));
    });
    connect(zoomRange_, &QLineEdit::returnPressed, this, &MemoryView::zoomToRange);
    connect(selectTiles_, &QLineEdit::returnPressed, this, &MemoryView::selectFromText);
    connect(canvas_, &TileMemoryCanvas::selectionChanged, this, &MemoryView::applySelection);
    connect(canvas_, &ChartCanvas::windowChanged, this, [this](double begin, double end) {
        this->session().state().tileWindow = std::make_pair(begin, end);
    });
    connect(model_, &TileMemoryModel::loadedChanged, this, [this] {
        const ViewState& s = this->session().state();
        updateTileOrderChoice();
        if (s.tileWindow)
            canvas_->showWindow(s.tileWindow->first, s.tileWindow->second);
        details_->setSelection(s.selectedTiles);
        tileMap_->setSelection(s.selectedTiles);
        updateSelectionLabel();
        loadTab(tabs_->currentIndex());
        // A tab that reads its own data is part of what is shown: ready once it has it.
        const int tab = tabs_->currentIndex();
        if (tab != ComputeSetsTab && tab != VariablesTab && tab != VariablesGraphTab)
            markReady();
    });
    connect(computeSets_, &TileComputeSetsModel::loaded, this, [this] {
        if (tabs_->currentIndex() == ComputeSetsTab)
            markReady();
    });
    connect(this, &MemoryView::variablesGraphed, this, [this] {
        if (tabs_->currentIndex() == VariablesGraphTab)
            markReady();
    });
    connect(model_, &TileMemoryModel::failed, this, &ReportView::failed);
    connect(tabs_, &QTabWidget::currentChanged, this, &MemoryView::loadTab);
    connect(tileMap_, &TileMapWidget::selectionChanged, this, &MemoryView::applySelection);
    connect(vertices_, &TileVerticesModel::loaded, this, [this] {
        const TileSelection& tiles = vertices_->selection();
        verticesLabel_->setText(
            tiles.empty()
                ? tr("%1 vertex groups on all tiles").arg(formatCount(vertices_->rowCount()))
                : tr("%1 vertex groups on %2 selected tile(s)")
                      .arg(formatCount(vertices_->rowCount()))
                      .arg(formatCount(std::int64_t(tiles.count()))));
    });
    connect(exchanges_, &TileExchangesModel::loaded, this, [this] {
        const TileSelection& tiles = exchanges_->selection();
        const QString count = formatCount(exchanges_->rowCount());
        exchangesLabel_->setText(
            tiles.empty()
                ? (exchanges_->limitReached()
                       ? tr("The %1 largest steps that move data (bytes over all tiles)").arg(count)
                       : tr("All %1 steps that move data (bytes over all tiles)").arg(count))
                : tr("%1 steps that move data with the %2 selected tile(s) taking part, the "
                     "busiest for them first (bytes over all tiles: the report keeps no tile's "
                     "share)")
                      .arg(count, formatCount(std::int64_t(tiles.count()))));
    });
    connect(exchanges_, &TileExchangesModel::failed, this, [this](const QString& message) {
        exchangesLabel_->setText(tr("Cannot read the table: %1").arg(message));
    });
    connect(variables_, &TileVariablesModel::loaded, this, [this] {
        const TileSelection& tiles = variables_->selection();
        const QString count = formatCount(variables_->rowCount());
        variablesLabel_->setText(
            tiles.empty()
                ? (variables_->limitReached()
                       ? tr("The %1 largest variables (bytes over all tiles)").arg(count)
                       : tr("All %1 variables (bytes over all tiles)").arg(count))
                : tr("%1 variables with bytes on the %2 selected tile(s), most there first; "
                     "select rows to graph them")
                      .arg(count, formatCount(std::int64_t(tiles.count()))));
        // The graph starts on the largest variables until the user picks some.
        if (this->session().state().graphedVariables.empty() && variables_->rowCount() > 0 &&
            variablesGraph_->series().bytes.empty()) {
            std::vector<std::int64_t> ids;
            for (int r = 0; r < std::min(kDefaultGraphedVariables, variables_->rowCount()); ++r)
                ids.push_back(variables_->variableIdAt(r));
            graphVariables(ids, false);
        } else if (tabs_->currentIndex() == VariablesGraphTab && variables_->rowCount() == 0) {
            variablesGraph_->setMessage(tr("This report has no variables."));
            emit variablesGraphed();
        }
        if (tabs_->currentIndex() == VariablesTab)
            markReady();
    });
    connect(variables_, &TileVariablesModel::failed, this, [this](const QString& message) {
        variablesLabel_->setText(tr("Cannot read the table: %1").arg(message));
    });
    connect(computeSets_, &TileComputeSetsModel::loaded, this, [this] {
        const TileSelection& tiles = computeSets_->selection();
        computeSetsLabel_->setText(
            tiles.empty()
                ? tr("%1 compute sets on all tiles").arg(formatCount(computeSets_->rowCount()))
                : tr("%1 compute sets with vertices on %2 selected tile(s)")
                      .arg(formatCount(computeSets_->rowCount()),
                           formatCount(std::int64_t(tiles.count()))));
    });
    connect(computeSets_, &TileComputeSetsModel::failed, this, [this](const QString& m) {
        computeSetsLabel_->setText(tr("Cannot read the compute sets: %1").arg(m));
    });
    connect(vertices_, &TileVerticesModel::failed, verticesLabel_, [this](const QString& m) {
        verticesLabel_->setText(tr("Cannot read the vertices: %1").arg(m));
    });
    details_->setSelection(state.selectedTiles);
    model_->load();
}

void MemoryView::graphVariables(const std::vector<std::int64_t>& ids, bool chosen) {
    if (chosen)
        session().state().graphedVariables = ids;
    const std::uint64_t generation = ++graphGeneration_;
    if (ids.empty()) {
        variablesGraph_->setSeries({});
        return;
    }
    variablesGraph_->setMessage(tr("Reading the variables' bytes per tile…"));
    auto shared = sharedSession();
    runInBackground<VariableTileSeries>(
        this,
        [shared, ids] {
            return shared->read([&](const report::ProfileReader& reader) {
                return VariableTileSeries::fetch(reader, ids);
            });
        },
        [this, generation](VariableTileSeries series) {
            if (generation != graphGeneration_)
                return;
            variablesGraph_->setSeries(std::move(series));
            emit variablesGraphed();
        },
        [this, generation](const QString& message) {
            if (generation != graphGeneration_)
                return;
            variablesGraph_->setMessage(tr("Cannot read the variables: %1").arg(message));
            emit variablesGraphed();
        });
}

MemoryView::~MemoryView() = default;

QStringList MemoryView::tabNames() {
    return {QStringLiteral("details"),      QStringLiteral("vertices"),
            QStringLiteral("compute-sets"), QStringLiteral("exchanges"),
            QStringLiteral("variables"),    QStringLiteral("variables-graph"),
            QStringLiteral("tile-map")};
}

void MemoryView::applySelection(const TileSelection& tiles) {
    session().state().selectedTiles = tiles;
    canvas_->setSelection(tiles);
    details_->setSelection(tiles);
    tileMap_->setSelection(tiles);
    selectTiles_->setText(tiles.toString());
    updateSelectionLabel();
    verticesStale_ = true;
    computeSetsStale_ = true;
    exchangesStale_ = true;
    variablesStale_ = true;
    loadTab(tabs_->currentIndex());
}

void MemoryView::loadTab(int index) {
    session().state().memoryTab = index;
    if (auto page = pendingPages_.find(index); page != pendingPages_.end()) {
        QWidget* built = page->second();
        static_cast<QVBoxLayout*>(tabs_->widget(index)->layout())->addWidget(built, 1);
        pendingPages_.erase(page);
        if (index == VariablesTab)
            connectVariablesTable(*built->findChild<QTableView*>());
    }
    if (!model_->isLoaded())
        return;
    switch (index) {
    case VerticesTab:
        if (verticesStale_) {
            verticesStale_ = false;
            verticesLabel_->setText(tr("Loading…"));
            vertices_->setSelection(session().state().selectedTiles);
        }
        break;
    case ComputeSetsTab:
        if (computeSetsStale_) {
            computeSetsStale_ = false;
            computeSetsLabel_->setText(tr("Loading…"));
            computeSets_->setSelection(session().state().selectedTiles);
        }
        break;
    case ExchangesTab:
        if (exchangesStale_) {
            exchangesStale_ = false;
            exchangesLabel_->setText(tr("Loading…"));
            exchanges_->setSelection(session().state().selectedTiles);
        }
        break;
    case VariablesTab:
    case VariablesGraphTab:
        if (variablesStale_) {
            variablesStale_ = false;
            variablesLabel_->setText(tr("Loading…"));
            variables_->setSelection(session().state().selectedTiles);
        }
        if (index == VariablesGraphTab && !session().state().graphedVariables.empty() &&
            variablesGraph_->series().bytes.empty())
            graphVariables(session().state().graphedVariables, false);
        break;
    default:
        break;
    }
}

void MemoryView::connectVariablesTable(QTableView& table) {
    // Rows selected in the table are the variables the graph shows.
    table.setSelectionMode(QAbstractItemView::ExtendedSelection);
    connect(table.selectionModel(), &QItemSelectionModel::selectionChanged, this, [this, &table] {
        const auto* proxy = qobject_cast<const QSortFilterProxyModel*>(table.model());
        std::vector<std::int64_t> ids;
        for (const QModelIndex& i : table.selectionModel()->selectedRows()) {
            const int row = proxy ? proxy->mapToSource(i).row() : i.row();
            if (const std::int64_t id = variables_->variableIdAt(row); id >= 0)
                ids.push_back(id);
        }
        if (!ids.empty())
            graphVariables(ids, true);
    });
}

void MemoryView::showEvent(QShowEvent* event) {
    ReportView::showEvent(event);
    // Another view (Operations) may have selected tiles while this one was hidden.
    const TileSelection& wanted = session().state().selectedTiles;
    if (model_->isLoaded() && !(wanted == details_->selection()))
        applySelection(wanted);
}

void MemoryView::updateTileOrderChoice() {
    // A report without a placement has software order only, whatever the view state asked.
    tileOrder_->setPhysicalAvailable(model_->hasPhysicalOrder(), model_->placementProblem());
    int& wanted = session().state().tileOrder;
    if (!model_->hasPhysicalOrder())
        wanted = int(TileOrder::Software);
    tileOrder_->showOrder(TileOrder(wanted));
    model_->setTileOrder(TileOrder(wanted));
}

void MemoryView::updateSelectionLabel() {
    const TileSelection& tiles = session().state().selectedTiles;
    if (tiles.empty())
        selectionLabel_->setText(tr("Details for all %1 tiles (click or shift-click the chart to "
                                    "select tiles)")
                                     .arg(formatCount(model_->tileCount())));
    else
        selectionLabel_->setText(tr("Details for %1 selected tile(s): %2")
                                     .arg(formatCount(std::int64_t(tiles.count())))
                                     .arg(tiles.toString().left(200)));
}

void MemoryView::zoomToRange() {
    if (!model_->isLoaded())
        return;
    QString error;
    const auto tiles = TileSelection::parse(zoomRange_->text(), model_->tileCount(), &error);
    if (!tiles) {
        QToolTip::showText(zoomRange_->mapToGlobal(QPoint(0, zoomRange_->height())), error,
                           zoomRange_);
        return;
    }
    const auto [first, end] = model_->positionSpan(*tiles);
    canvas_->showWindow(first, end);
    canvas_->setFocus();
}

void MemoryView::selectFromText() {
    if (!model_->isLoaded())
        return;
    if (selectTiles_->text().trimmed().isEmpty()) {
        applySelection({});
        return;
    }
    QString error;
    const auto tiles = TileSelection::parse(selectTiles_->text(), model_->tileCount(), &error);
    if (!tiles) {
        QToolTip::showText(selectTiles_->mapToGlobal(QPoint(0, selectTiles_->height())), error,
                           selectTiles_);
        return;
    }
    applySelection(*tiles);
}

} // namespace tilescope::gui
