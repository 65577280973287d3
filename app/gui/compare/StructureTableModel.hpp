#pragma once

#include "CompareSeries.hpp"
#include "ComparisonTableModel.hpp"

#include <QString>
#include <functional>
#include <memory>

namespace tilescope::report {
class StructureComparison;
}

namespace tilescope::gui {

class CompareSession;

/// Base of the compare tables built from StructureComparison (programs, operations, aligned
/// steps): the comparison runs on a worker thread, since aligning 200,000-step runs takes
/// seconds, and the rows (plus, for step alignments, the series for a canvas and a one-line
/// summary of matched/added/removed) arrive on the UI thread with `loaded`.
class StructureTableModel : public ComparisonTableModel {
    Q_OBJECT
public:
    using ComparisonTableModel::ComparisonTableModel;

    bool isLoaded() const { return loaded_; }
    QString error() const { return error_; }
    QString summaryText() const { return summary_; }
    std::shared_ptr<const CompareSeries> series() const { return series_; }
    /// What point `i` of the series is (for tooltips); empty without a series.
    QString pointLabel(std::size_t i) const { return pointLabel_ ? pointLabel_(i) : QString(); }

signals:
    void loaded();
    void failed(const QString& message);

protected:
    struct Result {
        std::vector<Row> rows;
        QString summary;
        std::shared_ptr<const CompareSeries> series;
        std::function<QString(std::size_t)> pointLabel;
    };
    /// Runs `build` with the session's StructureComparison on a worker thread.
    void load(std::shared_ptr<CompareSession> session,
              std::function<Result(report::StructureComparison&)> build);

private:
    bool loaded_ = false;
    QString error_;
    QString summary_;
    std::shared_ptr<const CompareSeries> series_;
    std::function<QString(std::size_t)> pointLabel_;
};

} // namespace tilescope::gui
