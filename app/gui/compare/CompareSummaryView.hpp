#pragma once

#include "CompareView.hpp"

namespace tilescope::gui {

class CompareSummaryModel;

/// The compare Summary: where the two reports came from (and whether either ran out of memory),
/// then source, target and difference (absolute and %) for every summary figure: memory totals,
/// counts, memory by category and by region, runs and the target properties that differ.
class CompareSummaryView : public CompareView {
    Q_OBJECT
public:
    explicit CompareSummaryView(std::shared_ptr<CompareSession> session, QWidget* parent = nullptr);

    CompareSummaryModel& model() const { return *model_; }

private:
    CompareSummaryModel* model_;
};

} // namespace tilescope::gui
