#pragma once

#include "CompareView.hpp"

namespace tilescope::gui {

class CompareSeriesCanvas;
class TileMemoryCompareModel;

/// The compare Memory view: memory per tile of both reports overlaid (source blue, target
/// orange) over all tiles, the difference per tile below it (red where the target uses more),
/// both zooming together, and the tiles whose memory grew most, with Source / Target / Diff
/// columns. Ready once the per-tile series are loaded.
class MemoryCompareView : public CompareView {
    Q_OBJECT
public:
    explicit MemoryCompareView(std::shared_ptr<CompareSession> session, QWidget* parent = nullptr);

    TileMemoryCompareModel& model() const { return *model_; }
    CompareSeriesCanvas& overlay() const { return *overlay_; }
    CompareSeriesCanvas& difference() const { return *difference_; }

private:
    TileMemoryCompareModel* model_;
    CompareSeriesCanvas* overlay_;
    CompareSeriesCanvas* difference_;
};

} // namespace tilescope::gui
