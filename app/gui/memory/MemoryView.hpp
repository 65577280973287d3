#pragma once

#include "core/ReportView.hpp"
#include "core/TileSelection.hpp"

#include <QStringList>
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTabWidget;
class QTableView;

namespace tilescope::gui {

class TileComputeSetsModel;
class TileDetailsModel;
class TileVariablesModel;
class VariablesGraphWidget;
class TileMapWidget;
class TileOrderBox;
class TileMemoryCanvas;
class TileMemoryModel;
class TileVerticesModel;
class TileExchangesModel;

/// The Memory view: a toolbar (breakdown, Include Gaps, Show Max Memory, software or physical tile
/// order, zoom to a tile range, select tiles by list), the TileMemoryCanvas, and below it tabs:
/// Details (categories of the selected tiles), Vertices and Compute sets (on the selected tiles),
/// Exchanges (the steps that move data where the selected tiles take part), Variables (those with
/// bytes on the selected tiles, or the largest), the Variables graph (bytes per tile of the
/// variables selected in the Variables table, the largest three until some are picked) and the Tile
/// map (floor plan coloured by memory; clicking selects). The tables sort and filter; each tab
/// reads its data the first time it is shown (the ones that follow the tiles again when the
/// selection changes). Its settings live in the session's ViewState, so a selection made in another
/// view (a variable's tiles in the Operations view) shows here.
class MemoryView : public ReportView {
    Q_OBJECT
public:
    explicit MemoryView(std::shared_ptr<ReportSession> session, QWidget* parent = nullptr);
    ~MemoryView() override;

    TileMemoryModel& model() const { return *model_; }
    TileMemoryCanvas& canvas() const { return *canvas_; }
    TileVerticesModel& vertices() const { return *vertices_; }
    TileExchangesModel& exchanges() const { return *exchanges_; }
    TileVariablesModel& variables() const { return *variables_; }
    TileComputeSetsModel& computeSets() const { return *computeSets_; }
    VariablesGraphWidget& variablesGraph() const { return *variablesGraph_; }
    /// Graphs the bytes per tile of variables `ids`; `chosen` remembers them as the user's choice.
    void graphVariables(const std::vector<std::int64_t>& ids, bool chosen);
    TileMapWidget& tileMap() const { return *tileMap_; }
    TileOrderBox& tileOrder() const { return *tileOrder_; }
    QTabWidget& tabs() const { return *tabs_; }

    /// The tabs' names on the command line (--memory-tab), in tab order.
    static QStringList tabNames();
    /// Rows the Exchanges and Variables tabs keep (largest first).
    static constexpr int kTableRows = 10000;

signals:
    /// The Variables graph shows the variables last asked for (or why it cannot).
    void variablesGraphed();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void applySelection(const TileSelection& tiles);
    void zoomToRange();
    void selectFromText();
    void updateSelectionLabel();
    void updateTileOrderChoice();
    void loadTab(int index);
    void connectVariablesTable(QTableView& table);

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
    TileExchangesModel* exchanges_;
    QLabel* exchangesLabel_;
    bool exchangesStale_ = true;
    TileVariablesModel* variables_;
    TileComputeSetsModel* computeSets_;
    VariablesGraphWidget* variablesGraph_;
    QLabel* computeSetsLabel_;
    QLabel* variablesLabel_;
    bool computeSetsStale_ = true;
    bool variablesStale_ = true;
    std::uint64_t graphGeneration_ = 0;
    TileMapWidget* tileMap_;
    QTabWidget* tabs_;
    QLabel* verticesLabel_;
    bool verticesStale_ = true;
    std::map<int, std::function<QWidget*()>> pendingPages_; // tab index -> page builder
};

} // namespace tilescope::gui
