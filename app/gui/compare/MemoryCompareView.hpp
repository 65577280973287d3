#pragma once

#include "CompareView.hpp"
#include "memory/TileOrder.hpp"

namespace tilescope::gui {

class CompareSeriesCanvas;
class TileMemoryCompareModel;
class TileOrderBox;

/// The compare Memory view: memory per tile of both reports overlaid (source blue, target
/// orange) over all tiles, the difference per tile below it (red where the target uses more),
/// both zooming together, and the tiles whose memory grew most, with Source / Target / Diff
/// columns. Software or physical tile order for the charts (physical when both reports place
/// their tiles the same way). Ready once the per-tile series are loaded.
class MemoryCompareView : public CompareView {
    Q_OBJECT
public:
    explicit MemoryCompareView(std::shared_ptr<CompareSession> session, QWidget* parent = nullptr);

    TileMemoryCompareModel& model() const { return *model_; }
    CompareSeriesCanvas& overlay() const { return *overlay_; }
    CompareSeriesCanvas& difference() const { return *difference_; }
    TileOrderBox& tileOrder() const { return *tileOrder_; }

private:
    void showOrder(TileOrder order);

    TileMemoryCompareModel* model_;
    CompareSeriesCanvas* overlay_;
    CompareSeriesCanvas* difference_;
    TileOrderBox* tileOrder_;
    TileOrder order_ = TileOrder::Software;
};

} // namespace tilescope::gui
