#include "SweepView.hpp"

#include "SweepScatter.hpp"
#include "SweepTableModel.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace tilescope::gui {

SweepView::SweepView(QWidget* parent)
    : QWidget(parent), model_(new SweepTableModel(this)), proxy_(new QSortFilterProxyModel(this)),
      table_(new QTableView), scatter_(new SweepScatter), filter_(new QLineEdit),
      compare_(new QPushButton(tr("Compare two selected"))), heading_(new QLabel) {
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(Qt::UserRole);
    proxy_->setFilterKeyColumn(-1); // any column: a value of an axis, a state, a name
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    table_->setModel(proxy_);
    // Plan order until a header is clicked (Qt would sort by the first column, descending).
    table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    table_->setSortingEnabled(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    filter_->setPlaceholderText(tr("Filter variants (any column)"));
    filter_->setClearButtonEnabled(true);
    compare_->setEnabled(false);
    compare_->setToolTip(tr("Open the reports of the two selected variants side by side"));

    auto* top = new QHBoxLayout;
    top->addWidget(heading_, 1);
    top->addWidget(filter_, 1);
    top->addWidget(compare_);
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(table_);
    splitter->addWidget(scatter_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &SweepView::onSelectionChanged);
    connect(compare_, &QPushButton::clicked, this, &SweepView::onCompare);
    connect(scatter_, &SweepScatter::pointClicked, this, [this](int row) { selectRows({row}); });
}

void SweepView::setSummary(std::shared_ptr<const sweep::SweepSummary> summary) {
    model_->setSummary(summary);
    std::vector<SweepPoint> points;
    double capacity = 0;
    std::size_t compiled = 0, fit = 0, failed = 0;
    for (std::size_t i = 0; i < summary->rows.size(); ++i) {
        const auto& r = summary->rows[i];
        compiled += r.compiled;
        fit += r.fits;
        failed += r.state == "failed";
        capacity = std::max(capacity, static_cast<double>(r.bytesPerTile));
        if (r.hasReport && r.compiled && r.cycles())
            points.push_back({static_cast<int>(i), static_cast<double>(r.peakTileMemoryBytes),
                              static_cast<double>(*r.cycles()), r.fits,
                              static_cast<bool>(model_->paretoFront()[i])});
    }
    scatter_->setPoints(std::move(points), capacity);
    heading_->setText(tr("%1 variants: %2 compiled, %3 fit, %4 failed; baseline %5; * Pareto front")
                          .arg(summary->rows.size())
                          .arg(compiled)
                          .arg(fit)
                          .arg(failed)
                          .arg(summary->baseline.empty()
                                   ? tr("(none)")
                                   : QString::fromStdString(summary->baseline)));
    table_->resizeColumnsToContents();
}

std::vector<int> SweepView::selectedRows() const {
    std::vector<int> rows;
    for (const QModelIndex& index : table_->selectionModel()->selectedRows())
        rows.push_back(proxy_->mapToSource(index).row());
    return rows;
}

void SweepView::selectRows(const std::vector<int>& rows) {
    QItemSelection selection;
    for (int row : rows) {
        const QModelIndex index = proxy_->mapFromSource(model_->index(row, 0));
        if (index.isValid())
            selection.select(index, index.siblingAtColumn(proxy_->columnCount() - 1));
    }
    table_->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    if (!selection.isEmpty())
        table_->scrollTo(selection.indexes().front());
}

void SweepView::onSelectionChanged() {
    const auto rows = selectedRows();
    scatter_->setSelectedRows(rows);
    bool twoReports = rows.size() == 2;
    for (int row : rows)
        if (const auto* v = model_->variant(row))
            twoReports = twoReports && v->hasReport;
    compare_->setEnabled(twoReports);
}

void SweepView::onCompare() {
    const auto rows = selectedRows();
    if (rows.size() != 2 || !model_->summary())
        return;
    const auto path = [&](int row) {
        const auto folder = model_->summary()->directory / model_->variant(row)->name;
        const auto file = sweep::reportFileOf(folder);
        return QString::fromStdString((file.empty() ? folder / sweep::kReportFile : file).string());
    };
    emit compareRequested(path(rows[0]), path(rows[1]));
}

} // namespace tilescope::gui
