#include "ImageSaving.hpp"

#include <QContextMenuEvent>
#include <QFileDialog>
#include <QImageWriter>
#include <QMenu>
#include <QMessageBox>
#include <QWidget>

namespace tilescope::gui {

void saveImageAs(QWidget* parent, const QImage& image, const QString& title) {
    QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Save %1").arg(title),
                                                QString(), QObject::tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1String(".png"), Qt::CaseInsensitive))
        path += QLatin1String(".png");
    QImageWriter writer(path, "png");
    if (!writer.write(image))
        QMessageBox::warning(parent, QObject::tr("Save %1").arg(title),
                             QObject::tr("Cannot write %1: %2").arg(path, writer.errorString()));
}

void showSaveImageMenu(QWidget* chart, QContextMenuEvent* event, const QString& title) {
    QMenu menu(chart);
    menu.addAction(QObject::tr("Save image…"), chart,
                   [chart, title] { saveImageAs(chart, chart->grab().toImage(), title); });
    menu.exec(event->globalPos());
}

} // namespace tilescope::gui
