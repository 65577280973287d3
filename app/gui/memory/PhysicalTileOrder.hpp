#pragma once

#include "tilescope/report/ProfileReader.hpp"
#include "tilescope/report/TilePlacement.hpp"

#include <QString>

namespace tilescope::gui {

/// The tile placement behind the physical tile order, as the Memory view and the compare Memory
/// view read it: the report's placement, or an empty one with `*problem` saying why there is no
/// physical order (none recorded, or damaged: a damaged placement costs only the physical order,
/// never the memory figures). `which` names the report in that sentence ("source", "target"), or
/// is empty for the only one.
report::TilePlacement readTilePlacement(const report::ProfileReader& reader, const QString& which,
                                        QString* problem);

} // namespace tilescope::gui
