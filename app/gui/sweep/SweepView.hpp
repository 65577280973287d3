#pragma once

#include "tilescope/sweep/SweepSummary.hpp"

#include <QWidget>
#include <memory>

class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace tilescope::gui {

class SweepScatter;
class SweepTableModel;

/// The Sweep view: a summary line, a filter, the sortable table of variants and the scatter of
/// cycles against peak tile memory side by side. Selecting rows rings their points (and a click
/// on a point selects its row); with two variants selected, Compare asks for them to be opened
/// side by side (`compareRequested` with both reports, the first selected as the source).
class SweepView : public QWidget {
    Q_OBJECT
public:
    explicit SweepView(QWidget* parent = nullptr);

    void setSummary(std::shared_ptr<const sweep::SweepSummary> summary);
    SweepTableModel* model() const { return model_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }
    SweepScatter* scatter() const { return scatter_; }
    QTableView* table() const { return table_; }
    /// Selects the variants of these source rows (replacing the selection).
    void selectRows(const std::vector<int>& rows);

signals:
    void compareRequested(const QString& source, const QString& target);

private:
    std::vector<int> selectedRows() const;
    void onSelectionChanged();
    void onCompare();

    SweepTableModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    SweepScatter* scatter_;
    QLineEdit* filter_;
    QPushButton* compare_;
    QLabel* heading_;
};

} // namespace tilescope::gui
