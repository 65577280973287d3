#pragma once

namespace tilescope::gui {

/// How the memory charts order tiles along their x axis: by software tile id, or by where the
/// tiles sit on the die (report::TilePlacement::physicalOrder), which needs a recorded placement.
enum class TileOrder { Software = 0, Physical = 1 };

} // namespace tilescope::gui
