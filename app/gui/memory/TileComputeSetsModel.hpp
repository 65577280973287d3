#pragma once

#include "core/NewestLoad.hpp"
#include "core/TileSelection.hpp"
#include "tables/RecordTableModel.hpp"

#include <memory>

namespace tilescope::gui {

class ReportSession;

/// The Memory view's Compute Sets tab: one row per compute set with vertices on the selected
/// tiles (all tiles when nothing is selected): its vertices and vertex types there, their state
/// bytes, the selected tiles that hold any, and what it costs to run (the program steps that
/// execute it and their cycle estimates, slowest tile each). setSelection() reads on a worker; a
/// newer selection supersedes an older one still running. Largest state first.
class TileComputeSetsModel : public RecordTableModel {
    Q_OBJECT
public:
    enum ColumnIndex { Name, Vertices, VertexTypes, State, Tiles, Steps, Cycles };

    explicit TileComputeSetsModel(std::shared_ptr<ReportSession> session,
                                  QObject* parent = nullptr);

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
