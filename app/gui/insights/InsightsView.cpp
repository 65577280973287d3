#include "InsightsView.hpp"

#include "InsightsModel.hpp"
#include "TileHistogramWidget.hpp"
#include "core/Format.hpp"
#include "core/ReportSession.hpp"
#include "tables/SortableTable.hpp"

#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QTableView>
#include <QVBoxLayout>

namespace tilescope::gui {
namespace {

QGroupBox* tableBox(const QString& title, RecordTableModel& model, QWidget* owner) {
    auto* table = newSortableTable(model, owner);
    // Names take the spare width and elide; the figures keep their full width.
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    table->setTextElideMode(Qt::ElideMiddle);
    table->setWordWrap(false);
    auto* box = new QGroupBox(title);
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(table);
    return box;
}

} // namespace

InsightsView::InsightsView(std::shared_ptr<ReportSession> session, QWidget* parent)
    : ReportView(std::move(session), parent) {
    model_ = new InsightsModel(sharedSession(), this);
    const auto& s = this->session().summary();

    auto* verdict = new QLabel;
    verdict->setWordWrap(true);
    verdict->setObjectName(QStringLiteral("verdict"));
    // Green and red stay readable with white text in light and dark palettes.
    const QString colour = model_->fits() ? QStringLiteral("#2e7d32") : QStringLiteral("#c62828");
    verdict->setStyleSheet(QStringLiteral("QLabel#verdict { background: %1; color: white; "
                                          "padding: 8px; border-radius: 4px; font-weight: bold; }")
                               .arg(colour));
    verdict->setText(
        model_->fits()
            ? tr("Fits: the fullest tile (%1) uses %2 of its %3.")
                  .arg(s.maxTile)
                  .arg(formatBytes(double(s.maxTileBytesIncludingGaps)),
                       formatBytes(double(s.target.bytesPerTile)))
            : tr("Out of memory: %1 tiles need more than their %2; the fullest (%3) needs %4.")
                  .arg(formatCount(s.tilesOverCapacity), formatBytes(double(s.target.bytesPerTile)))
                  .arg(s.maxTile)
                  .arg(formatBytes(double(s.maxTileBytesIncludingGaps))));
    auto* used = new QProgressBar;
    used->setRange(0, 1000);
    used->setValue(int(std::min(1.0, model_->usedFraction()) * 1000));
    used->setFormat(tr("%1 of all tile memory used (%2 of %3, gaps included)")
                        .arg(formatPercent(model_->usedFraction()),
                             formatBytes(double(s.totalBytesIncludingGaps)),
                             formatBytes(double(s.totalCapacityBytes))));

    auto* histogram = new TileHistogramWidget;
    auto* histogramBox = new QGroupBox(tr("Tiles by memory used (dashed: memory per tile)"));
    auto* histogramLayout = new QVBoxLayout(histogramBox);
    histogramLayout->addWidget(histogram);

    auto* grid = new QGridLayout(this);
    grid->addWidget(verdict, 0, 0, 1, 2);
    grid->addWidget(used, 1, 0, 1, 2);
    grid->addWidget(histogramBox, 2, 0);
    grid->addWidget(tableBox(tr("Fullest tiles"), model_->topTiles(), this), 2, 1);
    grid->addWidget(tableBox(tr("Vertex types by state"), model_->vertexTypes(), this), 3, 0);
    grid->addWidget(
        tableBox(tr("Largest always-live variables"), model_->alwaysLiveVariables(), this), 3, 1);
    auto* contentsBox = tableBox(tr("What fills the fullest tile"), model_->tileContents(), this);
    auto* adviceBox = tableBox(tr("What to change (estimated saving on the fullest tile)"),
                               model_->recommendations(), this);
    grid->addWidget(contentsBox, 4, 0);
    grid->addWidget(adviceBox, 4, 1);
    grid->addWidget(
        tableBox(tr("Largest exchanges (bytes over all tiles)"), model_->largestExchanges(), this),
        5, 0, 1, 2);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    grid->setRowStretch(2, 1);
    grid->setRowStretch(3, 1);
    grid->setRowStretch(4, 1);
    grid->setRowStretch(5, 1);

    connect(model_, &InsightsModel::loadedChanged, this, [this, histogram, contentsBox, adviceBox] {
        histogram->setHistogram(model_->histogram());
        const TileAdvice& a = model_->advice();
        if (a.tile >= 0) {
            contentsBox->setTitle(
                tr("What fills tile %1 (%2 of its %3)")
                    .arg(a.tile)
                    .arg(formatBytes(double(a.bytes)), formatBytes(double(a.capacity))));
            adviceBox->setTitle(
                tr("What to change on tile %1 (estimated saving there)").arg(a.tile));
        }
        markReady();
    });
    connect(model_, &InsightsModel::failed, this, &ReportView::failed);
    model_->load();
}

} // namespace tilescope::gui
