#include "MemoryCompareView.hpp"

#include "CompareSeriesCanvas.hpp"
#include "TileMemoryCompareModel.hpp"
#include "canvas/CanvasLink.hpp"
#include "core/Format.hpp"
#include "memory/TileOrderBox.hpp"
#include "tables/SortableTable.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace tilescope::gui {

MemoryCompareView::MemoryCompareView(std::shared_ptr<CompareSession> session, QWidget* parent)
    : CompareView(std::move(session), parent) {
    model_ = new TileMemoryCompareModel(sharedSession(), this);
    overlay_ = new CompareSeriesCanvas(CompareSeriesCanvas::Mode::Overlay);
    difference_ = new CompareSeriesCanvas(CompareSeriesCanvas::Mode::Difference);
    for (CompareSeriesCanvas* c : {overlay_, difference_}) {
        c->setValueFormat([](double v) { return formatBytes(v); }, true);
        c->setPointLabel(
            [this](std::size_t point) { return model_->tileLabel(model_->tileAt(order_, point)); });
        c->setMessage(tr("Loading memory per tile of both reports…"));
    }
    linkWindows({overlay_, difference_});

    auto* caption = new QLabel(tr("Memory per tile, gaps included: source and target (band: "
                                  "min–max per pixel column); below, target − source."));
    caption->setWordWrap(true);
    tileOrder_ = new TileOrderBox;
    tileOrder_->setEnabled(false); // until both reports' placements are known
    auto* top = new QHBoxLayout;
    top->addWidget(caption, 1);
    top->addWidget(tileOrder_);
    auto* charts = new QSplitter(Qt::Vertical);
    charts->addWidget(overlay_);
    charts->addWidget(difference_);
    charts->setStretchFactor(0, 3);
    charts->setStretchFactor(1, 2);

    auto* worstBox = new QWidget;
    auto* worstLayout = new QVBoxLayout(worstBox);
    worstLayout->setContentsMargins(0, 0, 0, 0);
    worstLayout->addWidget(new QLabel(tr("Worst tiles (largest increase first, top %1)")
                                          .arg(TileMemoryCompareModel::kWorstTiles)));
    QTableView* table = newSortableTable(model_->worstTiles(), this);
    table->horizontalHeader()->setStretchLastSection(true);
    worstLayout->addWidget(table);

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(charts);
    split->addWidget(worstBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({900, 380});
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(split, 1);

    connect(model_, &TileMemoryCompareModel::loaded, this, [this, table] {
        tileOrder_->setPhysicalAvailable(model_->hasPhysicalOrder(), model_->placementProblem());
        tileOrder_->setEnabled(true);
        showOrder(TileOrder::Software);
        table->resizeColumnsToContents();
        markReady();
    });
    connect(tileOrder_, &QComboBox::currentIndexChanged, this,
            [this](int index) { showOrder(TileOrder(index)); });
    connect(model_, &TileMemoryCompareModel::failed, this, [this](const QString& message) {
        const QString text = tr("Cannot read memory per tile: %1").arg(message);
        overlay_->setMessage(text);
        difference_->setMessage(text);
        emit failed(message);
    });
}

void MemoryCompareView::showOrder(TileOrder order) {
    if (order == TileOrder::Physical && !model_->hasPhysicalOrder())
        order = TileOrder::Software;
    order_ = order;
    overlay_->setSeries(model_->series(order));
    difference_->setSeries(model_->series(order));
}

} // namespace tilescope::gui
