#pragma once

#include <QImage>
#include <QString>

class QContextMenuEvent;
class QWidget;

namespace tilescope::gui {

/// "Save image" for every chart of the app: asks for a PNG file name and writes `image`, telling
/// the user when it cannot be written. `title` names the chart in the dialogs.
void saveImageAs(QWidget* parent, const QImage& image, const QString& title);

/// The context menu of a chart that has no other: "Save image…" of what `chart` shows (its
/// `grab()`), at the event's position.
void showSaveImageMenu(QWidget* chart, QContextMenuEvent* event, const QString& title);

} // namespace tilescope::gui
