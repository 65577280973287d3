#pragma once

#include "CompareView.hpp"

class QLabel;
class QTableView;

namespace tilescope::gui {

class StructureTableModel;

/// The compare Program Tree and Operations views: a caption with the match counts, then the
/// table of every item of both reports (added and removed ones marked in text and colour, never
/// dropped) with delta columns; sortable, copy and CSV export as every table. Ready once the
/// comparison has run (on a worker; a busy bar shows meanwhile).
class StructureCompareView : public CompareView {
    Q_OBJECT
public:
    /// Takes ownership of `model`. `sortColumn` >= 0 sorts by it, largest first, once loaded.
    StructureCompareView(std::shared_ptr<CompareSession> session, StructureTableModel* model,
                         const QString& title, int sortColumn, QWidget* parent = nullptr);

    StructureTableModel& model() const { return *model_; }
    QTableView& table() const { return *table_; }

private:
    StructureTableModel* model_;
    QTableView* table_;
    QLabel* caption_;
};

} // namespace tilescope::gui
