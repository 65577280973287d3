#include "ProgramTreeModel.hpp"

#include "canvas/SeriesColours.hpp"
#include "core/Background.hpp"
#include "core/Format.hpp"
#include "core/ReportSession.hpp"

#include <QColor>
#include <QFont>
#include <algorithm>

namespace tilescope::gui {

/// A tree node: the invisible root, a program or a step. Children are appended once, when
/// fetched, and never removed, so pointers to nodes stay valid for the model's lifetime.
struct ProgramTreeModel::Node {
    enum class Type { Root, Program, Step };
    Type type = Type::Root;
    report::ProgramRecord program;
    report::StepRecord step;
    Node* parent = nullptr;
    int row = 0;
    std::vector<std::unique_ptr<Node>> children;
    bool fetched = false;
    bool fetching = false;
};

/// The answer of one child query.
struct ProgramTreeModel::Fetched {
    std::vector<report::ProgramRecord> programs;
    std::vector<report::StepRecord> steps;
    std::map<std::int64_t, QString> entryPoints;
};

ProgramTreeModel::ProgramTreeModel(std::shared_ptr<ReportSession> session, QObject* parent)
    : QAbstractItemModel(parent), session_(std::move(session)), root_(std::make_unique<Node>()) {}

ProgramTreeModel::~ProgramTreeModel() = default;

void ProgramTreeModel::load() {
    fetchMore({});
}

bool ProgramTreeModel::isLoaded() const {
    return root_->fetched;
}

ProgramTreeModel::Node* ProgramTreeModel::nodeFrom(const QModelIndex& index) const {
    return index.isValid() ? static_cast<Node*>(index.internalPointer()) : root_.get();
}

QModelIndex ProgramTreeModel::indexOf(const Node* node, int column) const {
    if (!node || node == root_.get())
        return {};
    return createIndex(node->row, column, const_cast<Node*>(node));
}

const report::ProgramRecord* ProgramTreeModel::programAt(const QModelIndex& index) const {
    const Node* n = nodeFrom(index);
    return index.isValid() && n->type == Node::Type::Program ? &n->program : nullptr;
}

const report::StepRecord* ProgramTreeModel::stepAt(const QModelIndex& index) const {
    const Node* n = nodeFrom(index);
    return index.isValid() && n->type == Node::Type::Step ? &n->step : nullptr;
}

QModelIndex ProgramTreeModel::index(int row, int column, const QModelIndex& parent) const {
    const Node* p = nodeFrom(parent);
    if (row < 0 || row >= int(p->children.size()) || column < 0 || column >= ColumnCount)
        return {};
    return createIndex(row, column, p->children[std::size_t(row)].get());
}

QModelIndex ProgramTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid())
        return {};
    return indexOf(nodeFrom(child)->parent);
}

int ProgramTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return int(nodeFrom(parent)->children.size());
}

int ProgramTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

bool ProgramTreeModel::hasChildren(const QModelIndex& parent) const {
    const Node* n = nodeFrom(parent);
    if (n->type == Node::Type::Step)
        return false;
    // Unknown until fetched: show the expander, and drop it if the node turns out empty.
    return !n->fetched || !n->children.empty();
}

bool ProgramTreeModel::canFetchMore(const QModelIndex& parent) const {
    const Node* n = nodeFrom(parent);
    return n->type != Node::Type::Step && !n->fetched && !n->fetching;
}

void ProgramTreeModel::fetchMore(const QModelIndex& parent) {
    Node* node = nodeFrom(parent);
    if (!canFetchMore(parent))
        return;
    node->fetching = true;
    ++inFlight_;
    const bool isRoot = node->type == Node::Type::Root;
    const std::optional<std::int64_t> id =
        isRoot ? std::nullopt : std::optional<std::int64_t>(node->program.id);
    auto session = session_;
    runInBackground<Fetched>(
        this,
        [session, id, isRoot] {
            return session->read([&](const report::ProfileReader& reader) {
                Fetched f;
                f.programs = reader.children(id);
                // Programs that lower to BSP steps have no child programs: list their steps.
                if (f.programs.empty() && id)
                    f.steps = reader.stepsOfProgram(*id);
                if (isRoot)
                    for (const auto& c : reader.controlPrograms())
                        f.entryPoints[c.programId] =
                            c.isFunction
                                ? QStringLiteral("function %1").arg(QString::fromStdString(c.name))
                                : QStringLiteral("engine program %1").arg(c.index);
                return f;
            });
        },
        [this, node](Fetched f) {
            --inFlight_;
            node->fetching = false;
            node->fetched = true;
            if (node->type == Node::Type::Root)
                entryPoints_ = std::move(f.entryPoints);
            const QModelIndex parentIndex = indexOf(node);
            const std::size_t count = f.programs.size() + f.steps.size();
            if (count > 0) {
                beginInsertRows(parentIndex, 0, int(count) - 1);
                for (auto& p : f.programs) {
                    auto n = std::make_unique<Node>();
                    n->type = Node::Type::Program;
                    n->program = std::move(p);
                    n->parent = node;
                    n->row = int(node->children.size());
                    node->children.push_back(std::move(n));
                }
                for (auto& s : f.steps) {
                    auto n = std::make_unique<Node>();
                    n->type = Node::Type::Step;
                    n->step = std::move(s);
                    n->parent = node;
                    n->row = int(node->children.size());
                    node->children.push_back(std::move(n));
                }
                endInsertRows();
            } else if (parentIndex.isValid()) {
                emit dataChanged(parentIndex, parentIndex); // the expander goes away
            }
            emit fetchFinished(parentIndex);
            if (!revealPath_.empty())
                continueReveal();
        },
        [this, node](const QString& message) {
            --inFlight_;
            node->fetching = false;
            node->fetched = true; // do not retry in a loop; Reload retries
            revealPath_.clear();
            emit failed(message);
            emit fetchFinished(indexOf(node));
        });
}

QVariant ProgramTreeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    const Node* n = nodeFrom(index);
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::AlignVCenter |
                                   (column == CodeColumn ? Qt::AlignRight : Qt::AlignLeft));
    // One colour per program, as the Execution Trace's flame draws it; the selected program and
    // its steps are set apart.
    const std::int64_t programId = n->type == Node::Type::Step ? n->step.programId : n->program.id;
    if (role == Qt::DecorationRole && column == NameColumn && n->type != Node::Type::Root)
        return programColour(programId);
    if (highlighted_ && programId == *highlighted_ && n->type != Node::Type::Root) {
        if (role == Qt::BackgroundRole)
            return QColor(programColour(programId).red(), programColour(programId).green(),
                          programColour(programId).blue(), 70);
        if (role == Qt::FontRole) {
            QFont f;
            f.setBold(true);
            return f;
        }
    }
    if (n->type == Node::Type::Step) {
        const report::StepRecord& s = n->step;
        if (role == Qt::ToolTipRole)
            return tr("Program step %1 (%2)").arg(s.id).arg(QString::fromStdString(s.phase));
        if (role != Qt::DisplayRole)
            return {};
        switch (column) {
        case NameColumn:
            return tr("step %1").arg(formatCount(s.id));
        case KindColumn:
            return QString::fromStdString(s.kind);
        case CodeColumn:
            return {};
        case DetailColumn:
            return tr("%1 cycles%2")
                .arg(formatCount(std::int64_t(s.estimatedCycles)))
                .arg(s.exchangeBytes
                         ? tr(", %1 exchanged").arg(formatBytes(double(s.exchangeBytes)))
                         : QString());
        }
        return {};
    }
    const report::ProgramRecord& p = n->program;
    if (role == Qt::ToolTipRole)
        return p.debugPath.empty() ? QVariant() : QString::fromStdString(p.debugPath);
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case NameColumn: {
        QString name = QString::fromStdString(p.name.empty() ? p.kind : p.name);
        if (n->parent == root_.get())
            if (auto it = entryPoints_.find(p.id); it != entryPoints_.end())
                name = QStringLiteral("%1 (%2)").arg(name, it->second);
        return name;
    }
    case KindColumn:
        return QString::fromStdString(p.kind);
    case CodeColumn:
        return p.codeBytes ? formatBytes(double(p.codeBytes)) : QString();
    case DetailColumn:
        if (p.repeatCount)
            return tr("× %1").arg(formatCount(*p.repeatCount));
        if (p.computeSetId)
            return tr("compute set %1").arg(*p.computeSetId);
        if (p.calleeId)
            return tr("calls program %1").arg(*p.calleeId);
        return {};
    }
    return {};
}

QVariant ProgramTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Program");
    case KindColumn:
        return tr("Kind");
    case CodeColumn:
        return tr("Code");
    case DetailColumn:
        return tr("Detail");
    }
    return {};
}

void ProgramTreeModel::requestDetails(const QModelIndex& index) {
    const report::ProgramRecord* p = programAt(index);
    if (!p)
        return;
    const std::uint64_t generation = ++detailsGeneration_;
    ProgramDetails base;
    base.program = *p;
    if (auto it = entryPoints_.find(p->id); it != entryPoints_.end())
        base.entryPoint = it->second;
    auto session = session_;
    runInBackground<ProgramDetails>(
        this,
        [session, base] {
            return session->read([&](const report::ProfileReader& reader) {
                ProgramDetails d = base;
                if (d.program.computeSetId) {
                    const auto cs = reader.computeSets(*d.program.computeSetId - 1, 1);
                    if (!cs.empty() && cs.front().id == *d.program.computeSetId)
                        d.computeSet = QString::fromStdString(cs.front().name);
                }
                for (const auto& s : reader.stepsOfProgram(d.program.id)) {
                    ++d.steps;
                    d.estimatedCycles += s.estimatedCycles;
                }
                return d;
            });
        },
        [this, generation](ProgramDetails d) {
            if (generation == detailsGeneration_)
                emit detailsReady(d);
        },
        [this](const QString& message) { emit failed(message); });
}

void ProgramTreeModel::findNext(const QString& text) {
    if (text != searchText_) {
        searchText_ = text;
        lastFoundId_ = 0;
    }
    auto session = session_;
    const std::string needle = text.toStdString();
    const std::int64_t after = lastFoundId_;
    runInBackground<std::vector<std::int64_t>>(
        this,
        [session, needle, after] {
            return session->read([&](const report::ProfileReader& reader) {
                std::optional<report::ProgramRecord> hit = reader.findProgram(needle, after);
                if (!hit && after > 0)
                    hit = reader.findProgram(needle, 0); // wrap around
                std::vector<std::int64_t> path;
                // Parents up to the root; a damaged file could loop, so stop at a sane depth.
                for (std::optional<report::ProgramRecord> p = hit; p && path.size() < 4096;
                     p = p->parentId ? reader.program(*p->parentId) : std::nullopt)
                    path.push_back(p->id);
                std::reverse(path.begin(), path.end());
                return path;
            });
        },
        [this, text](std::vector<std::int64_t> path) {
            if (text != searchText_)
                return; // a newer search started
            if (path.empty()) {
                emit notFound(text);
                return;
            }
            lastFoundId_ = path.back();
            revealPath_ = std::move(path);
            continueReveal();
        },
        [this](const QString& message) { emit failed(message); });
}

void ProgramTreeModel::continueReveal() {
    Node* node = root_.get();
    for (std::int64_t id : revealPath_) {
        if (!node->fetched) {
            if (!node->fetching)
                fetchMore(indexOf(node));
            return; // resumed when that fetch finishes
        }
        const auto it =
            std::find_if(node->children.begin(), node->children.end(), [id](const auto& c) {
                return c->type == Node::Type::Program && c->program.id == id;
            });
        if (it == node->children.end()) {
            revealPath_.clear();
            emit notFound(searchText_);
            return;
        }
        node = it->get();
    }
    revealPath_.clear();
    emit found(indexOf(node));
}

void ProgramTreeModel::setHighlightedProgram(std::optional<std::int64_t> programId) {
    if (highlighted_ == programId)
        return;
    // Rows are fetched lazily and few are visible: repaint all rather than find the program's.
    emit layoutAboutToBeChanged();
    highlighted_ = programId;
    emit layoutChanged();
}

} // namespace tilescope::gui
