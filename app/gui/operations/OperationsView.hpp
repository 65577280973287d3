#pragma once

#include "core/ReportView.hpp"

class QComboBox;
class QLabel;
class QTableView;

namespace tilescope::gui {

class DebugInfoPane;

class OperationsModel;

/// The Operations view: a sortable, filterable table of the report's operations with a Columns
/// picker, and below it the selected operation's lowered steps (cycles each) and its variables.
/// Selecting a step makes it the session's selected step and program (the Liveness and Program
/// Tree views show it); selecting a variable selects the tiles holding it in the Memory view.
/// Figures include the operations nested in each one (a model layer's work is in its children)
/// unless "Own figures only" is chosen, for the table's cost columns and the details alike.
class OperationsView : public ReportView {
    Q_OBJECT
public:
    explicit OperationsView(std::shared_ptr<ReportSession> session, QWidget* parent = nullptr);

    OperationsModel& model() const { return *model_; }
    QTableView& operationsTable() const { return *operations_; }
    QTableView& stepsTable() const { return *steps_; }
    QTableView& variablesTable() const { return *variables_; }
    /// Inclusive figures (the default) or each operation's own only.
    void setInclusive(bool inclusive);

private:
    void onOperationsLoaded();
    void onOperationChanged();
    void showOperationInfo();

    OperationsModel* model_;
    QTableView* operations_;
    QTableView* steps_;
    QTableView* variables_;
    QLabel* status_;
    QComboBox* figures_;
    QLabel* operationLabel_;
    DebugInfoPane* debugInfo_;
};

} // namespace tilescope::gui
