#pragma once

#include "core/TileSelection.hpp"
#include "tables/RecordTableModel.hpp"

namespace tilescope::gui {

class TileMemoryModel;

/// The Memory view's Details table: bytes of each memory category, per region and in total,
/// summed over the selected tiles (all tiles when nothing is selected), with a final Total row.
/// Numbers come from TileMemoryModel's in-memory series, so changing the selection runs no query.
class TileDetailsModel : public RecordTableModel {
    Q_OBJECT
public:
    explicit TileDetailsModel(const TileMemoryModel& memory, QObject* parent = nullptr);

    void setSelection(const TileSelection& tiles);
    const TileSelection& selection() const { return tiles_; }
    /// Tiles the figures cover (the selection, or every tile).
    std::uint64_t tilesCovered() const { return covered_; }

private:
    void rebuild();

    const TileMemoryModel& memory_;
    TileSelection tiles_;
    std::uint64_t covered_ = 0;
};

} // namespace tilescope::gui
