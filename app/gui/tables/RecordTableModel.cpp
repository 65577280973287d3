#include "RecordTableModel.hpp"

#include "core/Format.hpp"

namespace tilescope::gui {

QString RecordTableModel::bytesCell(const QVariant& v) {
    return formatBytes(double(v.toULongLong()));
}

QString RecordTableModel::countCell(const QVariant& v) {
    return formatCount(v.toLongLong());
}

QString RecordTableModel::percentCell(const QVariant& v) {
    return formatPercent(v.toDouble());
}

RecordTableModel::RecordTableModel(std::vector<Column> columns, QObject* parent)
    : QAbstractTableModel(parent), columns_(std::move(columns)) {}

void RecordTableModel::setColumns(std::vector<Column> columns) {
    beginResetModel();
    columns_ = std::move(columns);
    rows_.clear();
    endResetModel();
}

void RecordTableModel::setRows(std::vector<Row> rows) {
    beginResetModel();
    rows_ = std::move(rows);
    for (Row& r : rows_)
        r.resize(columns_.size());
    endResetModel();
}

QVariant RecordTableModel::value(int row, int column) const {
    if (row < 0 || row >= rowCount() || column < 0 || column >= columnCount())
        return {};
    return rows_[std::size_t(row)][std::size_t(column)];
}

int RecordTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int RecordTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(columns_.size());
}

QVariant RecordTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    const Column& col = columns_[std::size_t(index.column())];
    const QVariant& v = rows_[std::size_t(index.row())][std::size_t(index.column())];
    switch (role) {
    case Qt::DisplayRole:
        if (!v.isValid())
            return {};
        return col.format ? col.format(v) : v.toString();
    case Qt::ToolTipRole:
        return col.format && v.isValid() ? v.toString() : QVariant();
    case Qt::UserRole:
        return v;
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignVCenter |
                                   (col.numeric ? Qt::AlignRight : Qt::AlignLeft));
    default:
        return {};
    }
}

QVariant RecordTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return {};
    if (role == Qt::DisplayRole)
        return columns_[std::size_t(section)].header;
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(
            Qt::AlignVCenter |
            (columns_[std::size_t(section)].numeric ? Qt::AlignRight : Qt::AlignLeft));
    return {};
}

} // namespace tilescope::gui
