#include "MemoryView.hpp"

#include "Format.hpp"
#include "ReportSession.hpp"
#include "TableExport.hpp"
#include "TileDetailsModel.hpp"
#include "TileMemoryCanvas.hpp"
#include "TileMemoryModel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>

namespace tilescope::gui {

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
    toolbar->addSpacing(12);
    toolbar->addWidget(zoomRange_, 1);
    toolbar->addWidget(selectTiles_, 1);

    canvas_ = new TileMemoryCanvas(*model_);
    canvas_->setShowMaxMemory(state.showMaxMemory);
    canvas_->setSelection(state.selectedTiles);

    selectionLabel_ = new QLabel;
    detailsTable_ = new QTableView;
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(details_);
    proxy->setSortRole(Qt::UserRole);
    detailsTable_->setModel(proxy);
    detailsTable_->setSortingEnabled(true);
    detailsTable_->sortByColumn(-1, Qt::AscendingOrder); // report order until the user sorts
    detailsTable_->verticalHeader()->hide();
    detailsTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The category names take the spare width; sections exist only once the model has columns.
    connect(details_, &QAbstractItemModel::modelReset, this, [this] {
        if (details_->columnCount() > 0)
            detailsTable_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    });
    detailsTable_->setAlternatingRowColors(true);
    detailsTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    addTableActions(detailsTable_);

    auto* detailsPane = new QWidget;
    auto* detailsLayout = new QVBoxLayout(detailsPane);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->addWidget(selectionLabel_);
    detailsLayout->addWidget(detailsTable_);

    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(canvas_);
    splitter->addWidget(detailsPane);
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
    connect(zoomRange_, &QLineEdit::returnPressed, this, &MemoryView::zoomToRange);
    connect(selectTiles_, &QLineEdit::returnPressed, this, &MemoryView::selectFromText);
    connect(canvas_, &TileMemoryCanvas::selectionChanged, this, &MemoryView::applySelection);
    connect(canvas_, &ChartCanvas::windowChanged, this, [this](double begin, double end) {
        this->session().state().tileWindow = std::make_pair(begin, end);
    });
    connect(model_, &TileMemoryModel::loadedChanged, this, [this] {
        const ViewState& s = this->session().state();
        if (s.tileWindow)
            canvas_->showWindow(s.tileWindow->first, s.tileWindow->second);
        details_->setSelection(s.selectedTiles);
        updateSelectionLabel();
        markReady();
    });
    connect(model_, &TileMemoryModel::failed, this, &ReportView::failed);
    details_->setSelection(state.selectedTiles);
    model_->load();
}

MemoryView::~MemoryView() = default;

void MemoryView::applySelection(const TileSelection& tiles) {
    session().state().selectedTiles = tiles;
    canvas_->setSelection(tiles);
    details_->setSelection(tiles);
    selectTiles_->setText(tiles.toString());
    updateSelectionLabel();
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
    const auto& r = tiles->ranges();
    canvas_->showWindow(r.front().first, double(r.back().last) + 1);
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
