#pragma once

#include "OperationGraph.hpp"
#include "core/ReportView.hpp"

#include <memory>

class QComboBox;
class QLabel;

namespace tilescope::gui {

class OperationGraphWidget;

/// The Operations Graph view: the model as a graph of operations (OperationGraph) drawn by an
/// OperationGraphWidget, coloured by cycles, variable memory or code; layers open and close with
/// a double-click or Expand all / Collapse all, and a small model opens with every layer open, a
/// large one as its layers. Selecting a node makes its operation the session's selected operation
/// (the Operations view shows it), and the operation selected there is outlined here. The
/// operations are read and rolled up once, on a worker.
class OperationGraphView : public ReportView {
    Q_OBJECT
public:
    explicit OperationGraphView(std::shared_ptr<ReportSession> session, QWidget* parent = nullptr);

    OperationGraphWidget& widget() const { return *widget_; }
    /// The graph shown (null while loading).
    const OperationGraph* graph() const;
    /// The line describing the selected node.
    QString detailsText() const;

protected:
    void showEvent(QShowEvent* event) override;

private:
    void setGraph(OperationGraph graph);
    void showSelection();

    OperationGraphWidget* widget_;
    QComboBox* metric_;
    QLabel* status_;
    QLabel* details_;
    std::shared_ptr<const OperationGraph> graph_;
};

} // namespace tilescope::gui
