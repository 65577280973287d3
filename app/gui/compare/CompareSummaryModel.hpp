#pragma once

#include "ComparisonTableModel.hpp"

#include <QObject>
#include <QString>
#include <memory>

namespace tilescope::gui {

class CompareSession;

/// The compare Summary's tables, built from the SummaryComparison the session computed while
/// opening (no query when the view is shown): memory figures in bytes, counts (rows of each
/// table, tiles over capacity), memory by category and by region, runs paired by position and
/// the target properties that differ. Every figure has Source, Target, Diff and Diff % columns
/// with raw values under Qt::UserRole.
class CompareSummaryModel : public QObject {
    Q_OBJECT
public:
    explicit CompareSummaryModel(std::shared_ptr<CompareSession> session,
                                 QObject* parent = nullptr);

    ComparisonTableModel& memory() { return memory_; }
    ComparisonTableModel& counts() { return counts_; }
    ComparisonTableModel& categories() { return categories_; }
    ComparisonTableModel& regions() { return regions_; }
    ComparisonTableModel& runs() { return runs_; }
    RecordTableModel& targetDifferences() { return targetDifferences_; }
    /// Where each report came from, and whether it ran out of memory.
    QString sourceHeadline() const { return sourceHeadline_; }
    QString targetHeadline() const { return targetHeadline_; }

private:
    ComparisonTableModel memory_;
    ComparisonTableModel counts_;
    ComparisonTableModel categories_;
    ComparisonTableModel regions_;
    ComparisonTableModel runs_;
    RecordTableModel targetDifferences_;
    QString sourceHeadline_;
    QString targetHeadline_;
};

} // namespace tilescope::gui
