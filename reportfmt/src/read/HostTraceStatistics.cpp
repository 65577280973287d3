// Call tree, statistics and name search over a host trace. The call tree is built track by track
// (thread, depth) from HostTraceReader::events: events on one track never overlap, so the parent
// of an event at depth d is found by walking the depth d-1 events of the same thread alongside
// it, one merge per track instead of a lookup per event.

#include "tilescope/report/HostTraceStatistics.hpp"

#include "EventBlocks.hpp"
#include "sqlite/Sqlite.hpp"
#include "tilescope/report/ReportError.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <unordered_map>
#include <unordered_set>

namespace tilescope::report {
namespace {

/// An event of the previous depth, for parent lookup.
struct Enclosing {
    std::int64_t startNs;
    std::int64_t endNs;
    std::int32_t node;
};

struct NodeKey {
    std::int32_t parent;
    std::int64_t nameId;
    bool operator==(const NodeKey&) const = default;
};

struct NodeKeyHash {
    std::size_t operator()(const NodeKey& k) const {
        return std::hash<std::int64_t>()(k.nameId * 1000003 + k.parent);
    }
};

class TreeBuilder {
public:
    explicit TreeBuilder(HostCallTree& tree) : tree_(tree) { tree_.nodes.emplace_back(); }

    std::int32_t child(std::int32_t parent, std::int64_t nameId) {
        const NodeKey key{parent, nameId};
        if (auto it = index_.find(key); it != index_.end())
            return it->second;
        const auto id = static_cast<std::int32_t>(tree_.nodes.size());
        CallTreeNode n;
        n.nameId = nameId;
        n.parent = parent;
        tree_.nodes.push_back(n);
        tree_.nodes[static_cast<std::size_t>(parent)].children.push_back(id);
        index_.emplace(key, id);
        return id;
    }

    void add(std::int32_t node, std::int64_t ns) {
        CallTreeNode& n = tree_.nodes[static_cast<std::size_t>(node)];
        n.minNs = n.count ? std::min(n.minNs, ns) : ns;
        n.maxNs = n.count ? std::max(n.maxNs, ns) : ns;
        ++n.count;
        n.totalNs += ns;
        n.selfNs += ns;
        if (n.parent > 0)
            tree_.nodes[static_cast<std::size_t>(n.parent)].selfNs -= ns;
        ++tree_.events;
        tree_.totalNs += ns;
    }

private:
    HostCallTree& tree_;
    std::unordered_map<NodeKey, std::int32_t, NodeKeyHash> index_;
};

} // namespace

HostCallTree buildCallTree(const HostTraceReader& reader, std::int64_t fromNs, std::int64_t toNs) {
    HostCallTree tree;
    tree.fromNs = fromNs;
    tree.toNs = toNs;
    TreeBuilder builder(tree);
    if (toNs < fromNs)
        return tree;
    std::vector<Enclosing> previous, current;
    for (const ThreadInfo& thread : reader.threads()) {
        const std::int32_t maxDepth = reader.maxDepth(thread.id);
        previous.clear();
        for (std::int32_t depth = 0; depth <= maxDepth; ++depth) {
            current.clear();
            std::size_t cursor = 0;
            for (const HostEvent& e : reader.events(thread.id, depth, fromNs, toNs,
                                                    std::numeric_limits<std::int64_t>::max())) {
                const std::int64_t start = e.startNs;
                // An unfinished event runs to the end of the range.
                const std::int64_t end = e.kind == EventKind::Unfinished ? std::max(start, toNs)
                                                                         : e.endNs.value_or(start);
                const std::int64_t ns = std::min(end, toNs) - std::max(start, fromNs);
                while (cursor + 1 < previous.size() && previous[cursor + 1].startNs <= start)
                    ++cursor;
                std::int32_t parent = 0;
                if (!previous.empty() && previous[cursor].startNs <= start &&
                    start <= previous[cursor].endNs)
                    parent = previous[cursor].node;
                const std::int32_t node = builder.child(parent, e.nameId);
                builder.add(node, std::max<std::int64_t>(ns, 0));
                current.push_back({start, end, node});
            }
            std::swap(previous, current);
        }
    }
    // A recursive name counts its inner calls too, as profilers' flat views do.
    std::unordered_map<std::int64_t, EventNameStatistics> byName;
    for (std::size_t i = 1; i < tree.nodes.size(); ++i) {
        const CallTreeNode& n = tree.nodes[i];
        EventNameStatistics& s = byName[n.nameId];
        s.minNs = s.count ? std::min(s.minNs, n.minNs) : n.minNs;
        s.maxNs = s.count ? std::max(s.maxNs, n.maxNs) : n.maxNs;
        s.nameId = n.nameId;
        s.count += n.count;
        s.totalNs += n.totalNs;
        s.selfNs += n.selfNs;
    }
    for (auto& [id, s] : byName)
        tree.byName.push_back(s);
    std::sort(tree.byName.begin(), tree.byName.end(), [](const auto& a, const auto& b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.nameId < b.nameId;
    });
    CallTreeNode& root = tree.nodes[0];
    root.count = tree.events;
    root.totalNs = tree.totalNs;
    return tree;
}

std::vector<std::pair<std::int64_t, std::string>> hostTraceNames(const HostTraceReader& reader) {
    std::vector<std::pair<std::int64_t, std::string>> out;
    auto st = reader.file().database().prepare("SELECT id, text FROM name ORDER BY id");
    while (st.step())
        out.emplace_back(st.int64(0), st.text(1));
    return out;
}

std::vector<HostEvent> findEventsByName(const HostTraceReader& reader,
                                        const std::vector<std::int64_t>& nameIds,
                                        std::int64_t limit, bool* truncated) {
    std::vector<HostEvent> out;
    if (truncated)
        *truncated = false;
    if (nameIds.empty() || limit <= 0)
        return out;
    // Every block is decoded (names are not indexed inside blocks); only matches are kept, then
    // ordered by start as the search lists them.
    const std::unordered_set<std::int64_t> wanted(nameIds.begin(), nameIds.end());
    auto st = reader.file().database().prepare(detail::kBlockColumns);
    detail::forEachBlockEvent(st, reader.path(), [&](const HostEvent& e) {
        if (wanted.count(e.nameId))
            out.push_back(e);
    });
    std::sort(out.begin(), out.end(), [](const HostEvent& a, const HostEvent& b) {
        return a.startNs != b.startNs ? a.startNs < b.startNs : a.id < b.id;
    });
    if (static_cast<std::int64_t>(out.size()) > limit) {
        out.resize(static_cast<std::size_t>(limit));
        if (truncated)
            *truncated = true;
    }
    return out;
}

} // namespace tilescope::report
