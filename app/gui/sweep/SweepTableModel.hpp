#pragma once

#include "tilescope/sweep/SweepSummary.hpp"

#include <QAbstractTableModel>
#include <memory>

namespace tilescope::gui {

/// The sweep table: one row per variant (its settings, how it ended, fits, memory, cycles,
/// differences from the baseline, host time) over a SweepSummary read once by the window. Cells
/// give text for display and numbers under Qt::UserRole, so a proxy sorts figures as numbers.
class SweepTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit SweepTableModel(QObject* parent = nullptr);

    void setSummary(std::shared_ptr<const sweep::SweepSummary> summary);
    const sweep::SweepSummary* summary() const { return summary_.get(); }
    /// The variant of a (source) row.
    const sweep::VariantRow* variant(int row) const;
    const std::vector<bool>& paretoFront() const { return pareto_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QVariant cell(int row, int column, bool forSorting) const;

    std::shared_ptr<const sweep::SweepSummary> summary_;
    std::vector<bool> pareto_;
    int axisColumns_ = 0;
};

} // namespace tilescope::gui
