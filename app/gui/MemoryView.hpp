#pragma once

#include "ReportView.hpp"
#include "TileSelection.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace tilescope::gui {

class TileDetailsModel;
class TileMemoryCanvas;
class TileMemoryModel;

/// The Memory view: a toolbar (breakdown, Include Gaps, Show Max Memory, zoom to a tile range,
/// select tiles by list), the TileMemoryCanvas, and below it the Details table for the selected
/// tiles. Its settings live in the session's ViewState.
class MemoryView : public ReportView {
    Q_OBJECT
public:
    explicit MemoryView(std::shared_ptr<ReportSession> session, QWidget* parent = nullptr);
    ~MemoryView() override;

    TileMemoryModel& model() const { return *model_; }
    TileMemoryCanvas& canvas() const { return *canvas_; }

private:
    void applySelection(const TileSelection& tiles);
    void zoomToRange();
    void selectFromText();
    void updateSelectionLabel();

    TileMemoryModel* model_;
    TileDetailsModel* details_;
    TileMemoryCanvas* canvas_;
    QComboBox* breakdown_;
    QCheckBox* includeGaps_;
    QCheckBox* showMax_;
    QLineEdit* zoomRange_;
    QLineEdit* selectTiles_;
    QLabel* selectionLabel_;
    QTableView* detailsTable_;
};

} // namespace tilescope::gui
