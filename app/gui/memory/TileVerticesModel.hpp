#pragma once

#include "core/NewestLoad.hpp"
#include "core/TileSelection.hpp"
#include "tables/RecordTableModel.hpp"

#include <memory>

namespace tilescope::gui {

class ReportSession;

/// The Memory view's Vertices tab: vertex instances on the selected tiles (all tiles when nothing
/// is selected), one row per (vertex type, compute set) with instances there: count, their state
/// bytes (count x state per instance), the type's code per tile and the selected tiles that hold
/// them. setSelection() reads on a worker thread: with a selection, one scan that decodes only
/// the selected tile ranges of each per-tile series (ProfileReader::vertexInstancesOnTiles); with
/// none, the stored counts and no per-tile data. A newer selection supersedes an older one still
/// running.
class TileVerticesModel : public RecordTableModel {
    Q_OBJECT
public:
    enum ColumnIndex { Type, ComputeSet, Count, State, CodePerTile, Tiles };

    explicit TileVerticesModel(std::shared_ptr<ReportSession> session, QObject* parent = nullptr);

    void setSelection(const TileSelection& tiles);
    const TileSelection& selection() const { return tiles_; }
    bool isLoading() const { return load_.busy(); }

signals:
    void loaded();
    void failed(const QString& message);

private:
    std::shared_ptr<ReportSession> session_;
    TileSelection tiles_;
    NewestLoad load_;
};

} // namespace tilescope::gui
