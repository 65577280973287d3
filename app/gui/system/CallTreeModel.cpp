#include "CallTreeModel.hpp"

#include "HostTraceSession.hpp"
#include "core/Background.hpp"
#include "core/Format.hpp"
#include "tilescope/report/HostTraceStatistics.hpp"

#include <QHash>
#include <algorithm>
#include <map>

namespace tilescope::gui {
namespace {

QString durationCell(const QVariant& v) {
    return formatDuration(v.toDouble());
}

std::vector<RecordTableModel::Column> statisticsColumns() {
    return {{QObject::tr("Name"), {}, false},
            {QObject::tr("Count"), RecordTableModel::countCell, true},
            {QObject::tr("Total"), durationCell, true},
            {QObject::tr("Self"), durationCell, true},
            {QObject::tr("Min"), durationCell, true},
            {QObject::tr("Mean"), durationCell, true},
            {QObject::tr("Max"), durationCell, true}};
}

} // namespace

CallTreeModel::CallTreeModel(std::vector<std::shared_ptr<HostTraceSession>> files, QObject* parent)
    : QAbstractItemModel(parent), files_(std::move(files)), statistics_(statisticsColumns()) {
    tree_.nodes.emplace_back();
}

CallTreeModel::Tree
CallTreeModel::computeTree(const std::vector<std::shared_ptr<HostTraceSession>>& files,
                           std::int64_t fromNs, std::int64_t toNs) {
    Tree out;
    out.fromNs = fromNs;
    out.toNs = toNs;
    out.nodes.emplace_back();
    std::map<std::pair<int, QString>, int> index; // (parent, name) -> node
    for (const auto& file : files) {
        const report::HostCallTree t = file->readLong([&](const report::HostTraceReader& reader) {
            return report::buildCallTree(reader, fromNs, toNs);
        });
        out.events += t.events;
        out.totalNs += t.totalNs;
        // Map this file's nodes onto the merged tree, parents before children (ids grow).
        std::vector<int> mapped(t.nodes.size(), 0);
        for (std::size_t i = 1; i < t.nodes.size(); ++i) {
            const auto& n = t.nodes[i];
            const int parent = mapped[std::size_t(n.parent)];
            const QString name = file->name(n.nameId);
            auto [it, added] = index.try_emplace({parent, name}, int(out.nodes.size()));
            if (added) {
                Node node;
                node.name = name;
                node.parent = parent;
                node.minNs = n.minNs;
                node.maxNs = n.maxNs;
                out.nodes.push_back(node);
                out.nodes[std::size_t(parent)].children.push_back(it->second);
            }
            Node& m = out.nodes[std::size_t(it->second)];
            m.minNs = std::min(m.minNs, n.minNs);
            m.maxNs = std::max(m.maxNs, n.maxNs);
            m.count += n.count;
            m.totalNs += n.totalNs;
            m.selfNs += n.selfNs;
            mapped[i] = it->second;
        }
    }
    Node& root = out.nodes[0];
    root.name = QObject::tr("All events");
    root.count = out.events;
    root.totalNs = out.totalNs;
    // Children by total time, longest first, as profilers list them.
    for (Node& n : out.nodes)
        std::sort(n.children.begin(), n.children.end(), [&](int a, int b) {
            return out.nodes[std::size_t(a)].totalNs > out.nodes[std::size_t(b)].totalNs;
        });
    return out;
}

void CallTreeModel::compute(std::optional<std::pair<std::int64_t, std::int64_t>> range) {
    if (computing_) {
        queued_ = range;
        return;
    }
    std::int64_t from = 0, to = -1;
    bool first = true;
    for (const auto& f : files_) {
        if (f->empty())
            continue;
        from = first ? f->beginNs() : std::min(from, f->beginNs());
        to = first ? f->endNs() : std::max(to, f->endNs());
        first = false;
    }
    if (range) {
        from = range->first;
        to = range->second;
    }
    computing_ = true;
    auto files = files_;
    runInBackground<Tree>(
        this, [files, from, to] { return computeTree(files, from, to); },
        [this](Tree t) {
            computing_ = false;
            setTree(std::move(t));
            if (queued_) {
                auto next = *queued_;
                queued_.reset();
                compute(next);
            }
        },
        [this](const QString& message) {
            computing_ = false;
            emit failed(message);
        });
}

void CallTreeModel::setTree(Tree tree) {
    beginResetModel();
    tree_ = std::move(tree);
    endResetModel();
    // Per-name figures over the whole tree (a recursive name counts its inner calls too).
    std::map<QString, Node> byName;
    for (std::size_t i = 1; i < tree_.nodes.size(); ++i) {
        const Node& n = tree_.nodes[i];
        auto [it, added] = byName.try_emplace(n.name, n);
        if (added)
            continue;
        Node& s = it->second;
        s.count += n.count;
        s.totalNs += n.totalNs;
        s.selfNs += n.selfNs;
        s.minNs = std::min(s.minNs, n.minNs);
        s.maxNs = std::max(s.maxNs, n.maxNs);
    }
    std::vector<RecordTableModel::Row> rows;
    for (const auto& [name, s] : byName)
        rows.push_back({name, QVariant::fromValue<qulonglong>(s.count),
                        QVariant::fromValue<qlonglong>(s.totalNs),
                        QVariant::fromValue<qlonglong>(s.selfNs),
                        QVariant::fromValue<qlonglong>(s.minNs),
                        s.count ? double(s.totalNs) / double(s.count) : 0.0,
                        QVariant::fromValue<qlonglong>(s.maxNs)});
    std::sort(rows.begin(), rows.end(),
              [](const auto& a, const auto& b) { return a[2].toLongLong() > b[2].toLongLong(); });
    statistics_.setRows(std::move(rows));
    loaded_ = true;
    emit loaded();
}

int CallTreeModel::findPath(const QStringList& path) const {
    int node = 0;
    for (const QString& name : path) {
        const auto& children = tree_.nodes[std::size_t(node)].children;
        const auto it = std::find_if(children.begin(), children.end(), [&](int c) {
            return tree_.nodes[std::size_t(c)].name == name;
        });
        if (it == children.end())
            return -1;
        node = *it;
    }
    return node;
}

int CallTreeModel::nodeOf(const QModelIndex& index) const {
    return index.isValid() ? int(index.internalId()) : 0;
}

QModelIndex CallTreeModel::index(int row, int column, const QModelIndex& parent) const {
    const auto& children = tree_.nodes[std::size_t(nodeOf(parent))].children;
    if (row < 0 || row >= int(children.size()) || column < 0 || column >= ColumnCount)
        return {};
    return createIndex(row, column, quintptr(children[std::size_t(row)]));
}

QModelIndex CallTreeModel::parent(const QModelIndex& child) const {
    const int node = nodeOf(child);
    if (node == 0)
        return {};
    const int parent = tree_.nodes[std::size_t(node)].parent;
    if (parent <= 0)
        return {};
    const auto& siblings =
        tree_.nodes[std::size_t(tree_.nodes[std::size_t(parent)].parent)].children;
    const int row = int(std::find(siblings.begin(), siblings.end(), parent) - siblings.begin());
    return createIndex(row, 0, quintptr(parent));
}

int CallTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return int(tree_.nodes[std::size_t(nodeOf(parent))].children.size());
}

int CallTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant CallTreeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    const Node& n = tree_.nodes[std::size_t(nodeOf(index))];
    const double mean = n.count ? double(n.totalNs) / double(n.count) : 0.0;
    QVariant raw;
    switch (index.column()) {
    case Name:
        raw = n.name;
        break;
    case Count:
        raw = QVariant::fromValue<qulonglong>(n.count);
        break;
    case Total:
        raw = QVariant::fromValue<qlonglong>(n.totalNs);
        break;
    case Self:
        raw = QVariant::fromValue<qlonglong>(n.selfNs);
        break;
    case Min:
        raw = QVariant::fromValue<qlonglong>(n.minNs);
        break;
    case Mean:
        raw = mean;
        break;
    default:
        raw = QVariant::fromValue<qlonglong>(n.maxNs);
        break;
    }
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == Name)
            return n.name;
        if (index.column() == Count)
            return RecordTableModel::countCell(raw);
        return formatDuration(raw.toDouble());
    case Qt::UserRole:
        return raw;
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignVCenter |
                                   (index.column() == Name ? Qt::AlignLeft : Qt::AlignRight));
    default:
        return {};
    }
}

QVariant CallTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = {"Name", "Count", "Total", "Self", "Min", "Mean", "Max"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace tilescope::gui
