#pragma once

#include "core/ReportView.hpp"
#include "core/TileSelection.hpp"

#include <functional>
#include <map>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTabWidget;
class QTableView;

namespace tilescope::gui {

class ReportTableModel;
class TileDetailsModel;
class TileMapWidget;
class TileOrderBox;
class TileMemoryCanvas;
class TileMemoryModel;
class TileVerticesModel;

/// The Memory view: a toolbar (breakdown, Include Gaps, Show Max Memory, software or physical tile
/// order, zoom to a tile range, select tiles by list), the TileMemoryCanvas, and below it tabs:
/// Details (categories of the selected tiles), Vertices (vertex instances on the selected tiles),
/// Exchanges and Variables (report-wide, largest first) and the Tile map (floor plan coloured by
/// memory; clicking selects). The tables sort and filter; each tab reads its data the first time it
/// is shown (Vertices again when the selection changes). Its settings live in the session's
/// ViewState, so a selection made in another view (a variable's tiles in the Operations view) shows
/// here.
class MemoryView : public ReportView {
    Q_OBJECT
public:
    explicit MemoryView(std::shared_ptr<ReportSession> session, QWidget* parent = nullptr);
    ~MemoryView() override;

    TileMemoryModel& model() const { return *model_; }
    TileMemoryCanvas& canvas() const { return *canvas_; }
    TileVerticesModel& vertices() const { return *vertices_; }
    ReportTableModel& exchanges() const { return *exchanges_; }
    ReportTableModel& variables() const { return *variables_; }
    TileMapWidget& tileMap() const { return *tileMap_; }
    TileOrderBox& tileOrder() const { return *tileOrder_; }
    QTabWidget& tabs() const { return *tabs_; }

    /// Rows the Exchanges and Variables tabs keep (largest first).
    static constexpr int kTableRows = 10000;

protected:
    void showEvent(QShowEvent* event) override;

private:
    void applySelection(const TileSelection& tiles);
    void zoomToRange();
    void selectFromText();
    void updateSelectionLabel();
    void updateTileOrderChoice();
    void loadTab(int index);

    TileMemoryModel* model_;
    TileDetailsModel* details_;
    TileMemoryCanvas* canvas_;
    QComboBox* breakdown_;
    QCheckBox* includeGaps_;
    QCheckBox* showMax_;
    TileOrderBox* tileOrder_;
    QLineEdit* zoomRange_;
    QLineEdit* selectTiles_;
    QLabel* selectionLabel_;
    QTableView* detailsTable_;
    TileVerticesModel* vertices_;
    ReportTableModel* exchanges_;
    ReportTableModel* variables_;
    TileMapWidget* tileMap_;
    QTabWidget* tabs_;
    QLabel* verticesLabel_;
    bool verticesStale_ = true;
    std::map<int, std::function<QWidget*()>> pendingPages_; // tab index -> page builder
};

} // namespace tilescope::gui
