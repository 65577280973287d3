#include "PhysicalTileOrder.hpp"

#include <QObject>
#include <exception>

namespace tilescope::gui {

report::TilePlacement readTilePlacement(const report::ProfileReader& reader, const QString& which,
                                        QString* problem) {
    report::TilePlacement placement;
    try {
        placement = reader.tilePlacement();
    } catch (const std::exception& e) { // ReportError, or any damage the reader let through
        *problem = QString::fromStdString(e.what());
        return {};
    }
    if (placement.empty())
        *problem =
            (which.isEmpty() ? QObject::tr("The report records no tile placement")
                             : QObject::tr("The %1 report records no tile placement").arg(which)) +
            QObject::tr(" (it was written before format version 4, or by a tool that "
                        "knows none).");
    return placement;
}

} // namespace tilescope::gui
