#include "MemoryCompareView.hpp"

#include "CanvasLink.hpp"
#include "CompareSeriesCanvas.hpp"
#include "Format.hpp"
#include "SortableTable.hpp"
#include "TileMemoryCompareModel.hpp"

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
        c->setPointLabel([this](std::size_t tile) { return model_->tileLabel(tile); });
        c->setMessage(tr("Loading memory per tile of both reports…"));
    }
    linkWindows({overlay_, difference_});

    auto* caption = new QLabel(tr("Memory per tile, gaps included: source and target overlaid "
                                  "(band: min–max of the tiles in a pixel column), and target − "
                                  "source."));
    caption->setWordWrap(true);
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
    layout->addWidget(caption);
    layout->addWidget(split, 1);

    connect(model_, &TileMemoryCompareModel::loaded, this, [this, table] {
        overlay_->setSeries(model_->series());
        difference_->setSeries(model_->series());
        table->resizeColumnsToContents();
        markReady();
    });
    connect(model_, &TileMemoryCompareModel::failed, this, [this](const QString& message) {
        const QString text = tr("Cannot read memory per tile: %1").arg(message);
        overlay_->setMessage(text);
        difference_->setMessage(text);
        emit failed(message);
    });
}

} // namespace tilescope::gui
