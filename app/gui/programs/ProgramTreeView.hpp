#pragma once

#include "ProgramTreeModel.hpp"
#include "core/ReportView.hpp"

class QLabel;
class QLineEdit;
class QTextBrowser;
class QTreeView;

namespace tilescope::gui {

class DebugInfoPane;

/// The Program Tree view: the lazy ProgramTreeModel in a QTreeView (children load as nodes are
/// expanded; the first entry point opens two levels deep) beside a details pane for the selected
/// program or step. Each program carries its colour (the Execution Trace's); the selected program
/// and its steps are set apart, also when selected in the Execution Trace.
class ProgramTreeView : public ReportView {
    Q_OBJECT
public:
    explicit ProgramTreeView(std::shared_ptr<ReportSession> session, QWidget* parent = nullptr);

    ProgramTreeModel& model() const { return *model_; }
    QTreeView& tree() const { return *tree_; }
    QLineEdit& searchBox() const { return *search_; }

protected:
    void showEvent(QShowEvent* event) override;

private:
    void onFetchFinished(const QModelIndex& parent);
    void onCurrentChanged(const QModelIndex& current);
    void showDetails(const ProgramTreeModel::ProgramDetails& d);

    ProgramTreeModel* model_;
    QTreeView* tree_;
    QTextBrowser* details_;
    DebugInfoPane* debugInfo_;
    QLineEdit* search_;
    QLabel* searchStatus_;
};

} // namespace tilescope::gui
