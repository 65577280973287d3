#include "TableExport.hpp"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QFileDialog>
#include <QItemSelectionModel>
#include <QMessageBox>
#include <QTableView>
#include <set>

namespace tilescope::gui {
namespace {

QString csvField(const QString& s) {
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) &&
        !s.contains(QLatin1Char('\n')) && !s.contains(QLatin1Char('\r')))
        return s;
    QString q = s;
    q.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

QString cellText(const QAbstractItemModel& model, int row, int column, bool rawNumbers) {
    const QModelIndex index = model.index(row, column);
    if (rawNumbers) {
        const QVariant raw = index.data(Qt::UserRole);
        if (raw.isValid() && raw.canConvert<double>() && raw.typeId() != QMetaType::QString)
            return raw.toString();
    }
    return index.data(Qt::DisplayRole).toString();
}

} // namespace

QString tableToCsv(const QAbstractItemModel& model, bool rawNumbers) {
    QString out;
    const int columns = model.columnCount();
    for (int c = 0; c < columns; ++c)
        out += (c ? QStringLiteral(",") : QString()) +
               csvField(model.headerData(c, Qt::Horizontal).toString());
    out += QStringLiteral("\r\n");
    for (int r = 0; r < model.rowCount(); ++r) {
        for (int c = 0; c < columns; ++c)
            out +=
                (c ? QStringLiteral(",") : QString()) + csvField(cellText(model, r, c, rawNumbers));
        out += QStringLiteral("\r\n");
    }
    return out;
}

QString selectionToTsv(const QTableView& view) {
    const QAbstractItemModel* model = view.model();
    if (!model)
        return {};
    std::set<int> rows;
    if (view.selectionModel())
        for (const QModelIndex& i : view.selectionModel()->selectedIndexes())
            rows.insert(i.row());
    if (rows.empty())
        for (int r = 0; r < model->rowCount(); ++r)
            rows.insert(r);
    QStringList lines;
    QStringList header;
    for (int c = 0; c < model->columnCount(); ++c)
        header << model->headerData(c, Qt::Horizontal).toString();
    lines << header.join(QLatin1Char('\t'));
    for (int r : rows) {
        QStringList cells;
        for (int c = 0; c < model->columnCount(); ++c)
            cells << model->index(r, c).data().toString();
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void addTableActions(QTableView* view) {
    auto* copy = new QAction(QObject::tr("Copy"), view);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    QObject::connect(copy, &QAction::triggered, view,
                     [view] { QApplication::clipboard()->setText(selectionToTsv(*view)); });
    auto* exportCsv = new QAction(QObject::tr("Export CSV…"), view);
    QObject::connect(exportCsv, &QAction::triggered, view, [view] {
        const QString path = QFileDialog::getSaveFileName(view, QObject::tr("Export table"),
                                                          QString(), QObject::tr("CSV (*.csv)"));
        if (path.isEmpty() || !view->model())
            return;
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
            file.write(tableToCsv(*view->model()).toUtf8()) < 0)
            QMessageBox::warning(view, QObject::tr("Export table"),
                                 QObject::tr("Cannot write %1: %2").arg(path, file.errorString()));
    });
    view->addAction(copy);
    view->addAction(exportCsv);
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
}

} // namespace tilescope::gui
