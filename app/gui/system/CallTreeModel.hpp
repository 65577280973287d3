#pragma once

#include "tables/RecordTableModel.hpp"

#include <QAbstractItemModel>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace tilescope::gui {

class HostTraceSession;

/// The call tree and the per-name statistics of the open host traces, for the whole trace or a
/// selected range. compute() runs report::buildCallTree for each file on a worker and merges the
/// files' trees by name, so several traces of one program add up. The tree is this item model
/// (name, count, total, self, min, mean, max; times in ns under Qt::UserRole so a proxy sorts
/// numbers); the flat per-name statistics are statistics(), a RecordTableModel for
/// SortableTable and CSV export.
class CallTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Name, Count, Total, Self, Min, Mean, Max, ColumnCount };
    struct Node {
        QString name;
        int parent = -1;
        std::vector<int> children;
        std::uint64_t count = 0;
        std::int64_t totalNs = 0, selfNs = 0, minNs = 0, maxNs = 0;
    };
    /// A merged tree (nodes[0] the root) with the range it covers.
    struct Tree {
        std::int64_t fromNs = 0, toNs = 0;
        std::vector<Node> nodes;
        std::uint64_t events = 0;
        std::int64_t totalNs = 0;
    };

    explicit CallTreeModel(std::vector<std::shared_ptr<HostTraceSession>> files,
                           QObject* parent = nullptr);

    /// Computes the tree of [fromNs, toNs]; nothing: the whole span of the files.
    void compute(std::optional<std::pair<std::int64_t, std::int64_t>> range = std::nullopt);
    bool isLoaded() const { return loaded_; }
    bool isComputing() const { return computing_; }
    const Tree& tree() const { return tree_; }
    RecordTableModel& statistics() { return statistics_; }
    /// The worker's job (public for tests).
    static Tree computeTree(const std::vector<std::shared_ptr<HostTraceSession>>& files,
                            std::int64_t fromNs, std::int64_t toNs);
    /// The node reached from the root by `path` of names; -1 when there is none.
    int findPath(const QStringList& path) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    void loaded();
    void failed(const QString& message);

private:
    void setTree(Tree tree);
    int nodeOf(const QModelIndex& index) const;

    std::vector<std::shared_ptr<HostTraceSession>> files_;
    Tree tree_;
    RecordTableModel statistics_;
    bool loaded_ = false;
    bool computing_ = false;
    std::optional<std::optional<std::pair<std::int64_t, std::int64_t>>> queued_;
};

} // namespace tilescope::gui
