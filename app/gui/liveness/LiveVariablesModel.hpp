#pragma once

#include "core/NewestLoad.hpp"
#include "tables/RecordTableModel.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace tilescope::gui {

class ReportSession;

/// The not-always-live variables live at one program step, largest first, with the step itself
/// (kind, phase, cycle estimates, bytes) and two companion tables: the always-live variables
/// (reserved at every step, so the same list for each) and the vertices of the step's compute set
/// per vertex type. showStep() queries on a worker thread; a newer request supersedes an older one
/// still running, so clicking along the chart never shows a stale step.
class LiveVariablesModel : public RecordTableModel {
    Q_OBJECT
public:
    struct StepInfo {
        std::int64_t id = -1;
        QString kind;
        QString phase;
        QString program;
        std::int64_t programId = -1;
        std::uint64_t estimatedCycles = 0;
        std::uint64_t exchangeBytes = 0;
        std::uint64_t notAlwaysLiveBytes = 0;
        std::uint64_t maxTileNotAlwaysLiveBytes = 0;
        std::uint64_t variableBytes = 0; // sum over the listed variables
        std::uint64_t vertexCount = 0;   // vertices of the step's compute set (0: none)
        QString vertexTypes;             // "Type x count, ..." largest first
        // Cycle estimates per tile (when recorded): tiles with work, their mean and the slowest.
        std::uint64_t busyTiles = 0;
        double meanBusyTileCycles = 0;
        std::int64_t slowestTile = -1;
        std::uint64_t alwaysLiveCount = 0; // always-live variables listed
        std::uint64_t alwaysLiveBytes = 0; // their bytes, all tiles
    };

    explicit LiveVariablesModel(std::shared_ptr<ReportSession> session, QObject* parent = nullptr);

    void showStep(std::int64_t step);
    std::optional<std::int64_t> step() const { return step_; }
    const StepInfo& stepInfo() const { return info_; }
    bool isLoading() const { return load_.busy(); }
    /// The report's id of the variable in `row` (-1 when out of range).
    /// Always-live variables, largest first (Variable, Bytes, Type, Elements, Category).
    RecordTableModel& alwaysLiveVariables() const { return *alwaysLive_; }
    /// The step's vertices by type (Vertex type, Instances, Tiles, State bytes, Code bytes).
    RecordTableModel& vertices() const { return *vertices_; }
    std::int64_t variableIdAt(int row) const {
        return row >= 0 && row < int(variableIds_.size()) ? variableIds_[std::size_t(row)] : -1;
    }

signals:
    void stepLoaded();
    void failed(const QString& message);

private:
    std::shared_ptr<ReportSession> session_;
    std::optional<std::int64_t> step_;
    StepInfo info_;
    std::vector<std::int64_t> variableIds_;
    RecordTableModel* alwaysLive_;
    RecordTableModel* vertices_;
    NewestLoad load_;
};

} // namespace tilescope::gui
