#pragma once

#include "core/NewestLoad.hpp"
#include "core/TileSelection.hpp"
#include "tables/RecordTableModel.hpp"

#include <memory>

namespace tilescope::gui {

class ReportSession;

/// The Memory view's Exchanges tab, following the tile selection: the steps that move data
/// (exchanges and stream copies) in which the selected tiles take part (estimated cycles there),
/// with how many of those tiles take part and the slowest one's cycles, beside the step's bytes
/// and cycles over all tiles, the steps that keep those tiles busiest first. With nothing
/// selected, every step that moves data, largest first, without the two per-tile columns. The
/// report records a step's bytes over all tiles only, so a tile's share of them is not shown. At
/// most `limit` rows. setSelection() reads on a worker; a newer selection supersedes an older one
/// still running.
class TileExchangesModel : public RecordTableModel {
    Q_OBJECT
public:
    enum ColumnIndex { Program, Kind, Bytes, Cycles, Step, Tiles, TileCycles };

    TileExchangesModel(std::shared_ptr<ReportSession> session, int limit,
                       QObject* parent = nullptr);

    void setSelection(const TileSelection& tiles);
    const TileSelection& selection() const { return tiles_; }
    bool isLoading() const { return load_.busy(); }
    /// True when more steps qualified than `limit`.
    bool limitReached() const { return limitReached_; }

signals:
    void loaded();
    void failed(const QString& message);

private:
    std::shared_ptr<ReportSession> session_;
    int limit_;
    TileSelection tiles_;
    bool limitReached_ = false;
    NewestLoad load_;
};

} // namespace tilescope::gui
