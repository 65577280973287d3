#pragma once

#include "TileOrder.hpp"

#include <QComboBox>
#include <QString>

namespace tilescope::gui {

/// The "Software order / Physical order" choice of the memory charts (item index = TileOrder).
/// Physical order needs a tile placement: setPhysicalAvailable disables that item when there is
/// none and puts the reason in its tooltip and the box's, so a user sees why it cannot be chosen.
class TileOrderBox : public QComboBox {
    Q_OBJECT
public:
    explicit TileOrderBox(QWidget* parent = nullptr);

    /// Enables or disables the physical item; `reason` says why it is unavailable.
    void setPhysicalAvailable(bool available, const QString& reason);
    TileOrder order() const { return TileOrder(currentIndex()); }
    /// Selects `order` without emitting currentIndexChanged.
    void showOrder(TileOrder order);
};

} // namespace tilescope::gui
