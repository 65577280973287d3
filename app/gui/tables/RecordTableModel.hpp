#pragma once

#include <QAbstractTableModel>
#include <QStringList>
#include <QVariant>
#include <cstdint>
#include <functional>
#include <vector>

namespace tilescope::gui {

/// A read-only table of rows held in memory, for the small tables of the app (summary figures,
/// the categories of a tile selection, the variables live at a step). Each column has a header,
/// an optional formatter for display and an alignment; Qt::UserRole gives the raw value so that
/// a QSortFilterProxyModel sorts bytes as numbers, not as "1.2 MiB" strings. Tooltips show the
/// exact raw value of formatted cells.
class RecordTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    struct Column {
        QString header;
        std::function<QString(const QVariant&)> format; // empty: QVariant::toString
        bool numeric = false;                           // right-aligned
    };
    using Row = std::vector<QVariant>;

    // Formatters shared by the app's tables, and the raw value type for byte counts.
    static QString bytesCell(const QVariant& v);
    static QString countCell(const QVariant& v);
    static QString percentCell(const QVariant& v);
    static QVariant u64(std::uint64_t v) { return QVariant::fromValue<qulonglong>(v); }

    explicit RecordTableModel(std::vector<Column> columns, QObject* parent = nullptr);

    void setRows(std::vector<Row> rows);
    const std::vector<Row>& rows() const { return rows_; }
    QVariant value(int row, int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

protected:
    void setColumns(std::vector<Column> columns);

private:
    std::vector<Column> columns_;
    std::vector<Row> rows_;
};

} // namespace tilescope::gui
