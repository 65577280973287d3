#include "TileOrderBox.hpp"

#include <QSignalBlocker>
#include <QStandardItemModel>

namespace tilescope::gui {

TileOrderBox::TileOrderBox(QWidget* parent) : QComboBox(parent) {
    addItems({tr("Software order"), tr("Physical order")});
}

void TileOrderBox::setPhysicalAvailable(bool available, const QString& reason) {
    if (auto* items = qobject_cast<QStandardItemModel*>(model()))
        if (QStandardItem* physical = items->item(int(TileOrder::Physical))) {
            physical->setEnabled(available);
            physical->setToolTip(available ? QString() : reason);
        }
    setToolTip(available ? tr("Tiles by their software id, or by their place on the die (column "
                              "by column, top to bottom)")
                         : reason);
}

void TileOrderBox::showOrder(TileOrder order) {
    const QSignalBlocker block(this);
    setCurrentIndex(int(order));
}

} // namespace tilescope::gui
