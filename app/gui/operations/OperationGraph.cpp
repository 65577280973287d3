#include "OperationGraph.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <unordered_map>

namespace tilescope::gui {
namespace {

using Json = nlohmann::json;
using Tensor = OperationGraph::Tensor;

bool isTensor(const Json& v) {
    return v.is_object() && v.contains("shape") && v.contains("type") &&
           v.at("shape").is_string() && v.at("type").is_string();
}

Tensor tensorOf(const Json& v) {
    Tensor t;
    t.text = v.at("type").get<std::string>() + " " + v.at("shape").get<std::string>();
    if (v.contains("name") && v.at("name").is_string())
        t.name = v.at("name").get<std::string>();
    return t;
}

/// The tensors an operation's debug information records as its arguments and outputs.
void tensorsOf(const std::string& json, std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) {
    if (json.empty())
        return;
    const Json root = Json::parse(json, nullptr, false);
    if (root.is_discarded() || !root.is_object())
        return;
    if (root.contains("args") && root.at("args").is_object())
        for (const auto& [key, v] : root.at("args").items())
            if (isTensor(v))
                inputs.push_back(tensorOf(v));
    if (root.contains("output") && isTensor(root.at("output")))
        outputs.push_back(tensorOf(root.at("output")));
    if (root.contains("outputs") && root.at("outputs").is_object())
        for (const auto& [key, v] : root.at("outputs").items())
            if (isTensor(v))
                outputs.push_back(tensorOf(v));
}

} // namespace

OperationGraph::OperationGraph(report::RolledUpOperations ops, std::set<int> expanded)
    : ops_(std::make_shared<const report::RolledUpOperations>(std::move(ops))),
      expanded_(std::move(expanded)) {
    auto tensors = std::make_shared<std::vector<OperationTensors>>(ops_->operations.size());
    for (std::size_t i = 0; i < ops_->operations.size(); ++i)
        tensorsOf(ops_->operations[i].operation.debugJson, (*tensors)[i].inputs,
                  (*tensors)[i].outputs);
    tensors_ = std::move(tensors);
    build();
}

OperationGraph::OperationGraph(std::shared_ptr<const report::RolledUpOperations> ops,
                               std::shared_ptr<const std::vector<OperationTensors>> tensors,
                               std::set<int> expanded)
    : ops_(std::move(ops)), tensors_(std::move(tensors)), expanded_(std::move(expanded)) {
    build();
}

OperationGraph OperationGraph::withExpanded(std::set<int> expanded) const {
    return OperationGraph(ops_, tensors_, std::move(expanded));
}

std::set<int> OperationGraph::defaultExpanded(const report::RolledUpOperations& ops, int maxNodes) {
    std::set<int> open;
    if (int(ops.operations.size()) > maxNodes)
        return open;
    for (std::size_t i = 0; i < ops.operations.size(); ++i)
        if (ops.rollup.descendants[i] > 0)
            open.insert(int(i));
    return open;
}

bool OperationGraph::isLayer(int operation) const {
    return operation >= 0 && std::size_t(operation) < ops_->operations.size() &&
           ops_->rollup.descendants[std::size_t(operation)] > 0;
}

OperationGraph OperationGraph::toggled(int operation) const {
    std::set<int> open = expanded_;
    if (!open.erase(operation) && isLayer(operation))
        open.insert(operation);
    return withExpanded(std::move(open));
}

int OperationGraph::nodeOf(int operation) const {
    return operation >= 0 && std::size_t(operation) < nodeOfOperation_.size()
               ? nodeOfOperation_[std::size_t(operation)]
               : -1;
}

std::uint64_t OperationGraph::maximum(Metric metric) const {
    return maxima_[std::size_t(metric)];
}

std::vector<int> OperationGraph::nodesInRanks(int firstRank, int lastRank) const {
    firstRank = std::max(firstRank, 0);
    lastRank = std::min(lastRank, ranks_ - 1);
    if (firstRank > lastRank)
        return {};
    return std::vector<int>(byRank_.begin() + rankStart_[std::size_t(firstRank)],
                            byRank_.begin() + rankStart_[std::size_t(lastRank) + 1]);
}

std::vector<int> OperationGraph::edgesInRanks(int firstRank, int lastRank) const {
    std::vector<int> found;
    // An edge overlaps when its upper row is at most lastRank and its lower one at least
    // firstRank; the lower one is at most longestEdge_ rows below the upper one.
    const auto from = std::lower_bound(edgeTop_.begin(), edgeTop_.end(), firstRank - longestEdge_);
    const auto to = std::upper_bound(edgeTop_.begin(), edgeTop_.end(), lastRank);
    for (auto it = from; it < to; ++it) {
        const Edge& e = edges_[std::size_t(it - edgeTop_.begin())];
        const int bottom =
            std::max(nodes_[std::size_t(e.from)].rank, nodes_[std::size_t(e.to)].rank);
        if (bottom >= firstRank)
            found.push_back(int(it - edgeTop_.begin()));
    }
    return found;
}

void OperationGraph::build() {
    const auto& totals = ops_->operations;
    const auto& r = ops_->rollup;
    const std::size_t count = totals.size();
    nodeOfOperation_.assign(count, -1);
    // Each operation is shown by the outermost collapsed layer holding it, or by itself.
    std::vector<int> shownBy(count);
    for (std::size_t i = 0; i < count; ++i) {
        int by = int(i);
        for (int p = r.parent[i]; p >= 0; p = r.parent[std::size_t(p)])
            if (!expanded_.count(p))
                by = p;
        shownBy[i] = by;
    }
    for (std::size_t i = 0; i < count; ++i) {
        if (shownBy[i] != int(i))
            continue;
        const bool layer = r.descendants[i] > 0;
        const bool open = layer && expanded_.count(int(i)) > 0;
        // An open layer is a frame; it is a node as well only when it has work of its own.
        if (open && r.self[i].cycles == 0 && r.self[i].variableBytes == 0)
            continue;
        const report::OperationRecord& o = totals[i].operation;
        Node n;
        n.operation = int(i);
        n.name = o.name;
        n.path = report::OperationRollup::pathOf(o);
        n.layer = o.layer;
        n.collapsed = layer && !open;
        const auto& figures = n.collapsed ? r.inclusive[i] : r.self[i];
        n.members = n.collapsed ? r.descendants[i] + 1 : 1;
        n.cycles = figures.cycles;
        n.memory = figures.variableBytes;
        n.code = figures.codeBytes;
        nodeOfOperation_[i] = int(nodes_.size());
        nodes_.push_back(std::move(n));
    }
    for (std::size_t i = 0; i < count; ++i)
        if (nodeOfOperation_[i] < 0 && shownBy[i] != int(i))
            nodeOfOperation_[i] = nodeOfOperation_[std::size_t(shownBy[i])];

    // Edges: a tensor an operation outputs that a later one takes as an argument. Operations
    // come in creation order, so the producer of a name is the latest one before its consumer.
    std::unordered_map<std::string, int> producer;
    std::map<std::pair<int, int>, std::size_t> edgeIndex;
    for (std::size_t i = 0; i < count; ++i) {
        const auto& [inputs, outputs] = (*tensors_)[i];
        const int to = nodeOfOperation_[i];
        if (to >= 0 && !nodes_[std::size_t(to)].collapsed) {
            for (const Tensor& t : inputs)
                nodes_[std::size_t(to)].inputs.push_back(t.text);
            for (const Tensor& t : outputs)
                nodes_[std::size_t(to)].outputs.push_back(t.text);
        }
        for (const Tensor& t : inputs) {
            const auto p = producer.find(t.name);
            if (t.name.empty() || p == producer.end())
                continue;
            const int from = nodeOfOperation_[std::size_t(p->second)];
            if (from < 0 || to < 0 || from == to)
                continue;
            const std::string label = t.name + ": " + t.text;
            const auto [it, added] = edgeIndex.try_emplace({from, to}, edges_.size());
            if (added)
                edges_.push_back({from, to, label});
            else if (edges_[it->second].tensor.find(label) == std::string::npos)
                edges_[it->second].tensor += ", " + label;
        }
        for (const Tensor& t : outputs)
            if (!t.name.empty())
                producer[t.name] = int(i);
    }

    layOut();
    index();
}

void OperationGraph::layOut() {
    const auto& totals = ops_->operations;
    const auto& r = ops_->rollup;
    // Layout: a node's row is one below its lowest producer (nodes are in creation order, so
    // edges to earlier nodes, as in a training loop's updates, do not count); nodes no tensor
    // connects go in rows of their own below, in creation order.
    const std::size_t n = nodes_.size();
    std::vector<std::vector<int>> preds(n);
    std::vector<bool> connected(n, false);
    for (const Edge& e : edges_) {
        connected[std::size_t(e.from)] = connected[std::size_t(e.to)] = true;
        if (e.from < e.to)
            preds[std::size_t(e.to)].push_back(e.from);
    }
    int lastRank = -1;
    for (std::size_t i = 0; i < n; ++i) {
        if (!connected[i])
            continue;
        int rank = 0;
        for (int p : preds[i])
            rank = std::max(rank, nodes_[std::size_t(p)].rank + 1);
        nodes_[i].rank = rank;
        lastRank = std::max(lastRank, rank);
    }
    std::vector<std::vector<int>> rows(std::size_t(lastRank + 1));
    for (std::size_t i = 0; i < n; ++i)
        if (connected[i])
            rows[std::size_t(nodes_[i].rank)].push_back(int(i));
    // Within a row, order by the mean column of the producers (fewer crossings), then creation.
    for (auto& row : rows) {
        std::vector<std::pair<double, int>> keyed;
        for (int i : row) {
            double sum = 0;
            for (int p : preds[std::size_t(i)])
                sum += nodes_[std::size_t(p)].column;
            keyed.push_back({preds[std::size_t(i)].empty()
                                 ? double(i) * 1e-6
                                 : sum / double(preds[std::size_t(i)].size()),
                             i});
        }
        std::stable_sort(keyed.begin(), keyed.end());
        for (std::size_t c = 0; c < keyed.size(); ++c)
            nodes_[std::size_t(keyed[c].second)].column = int(c);
        widest_ = std::max(widest_, int(row.size()));
    }
    const int wrap = std::max(8, widest_);
    int loose = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (connected[i])
            continue;
        nodes_[i].rank = lastRank + 1 + loose / wrap;
        nodes_[i].column = loose % wrap;
        ++loose;
    }
    widest_ = std::max(widest_, std::min(loose, wrap));
    ranks_ = lastRank + 1 + (loose + wrap - 1) / wrap;

    // Frames: each open layer around the nodes it holds (each node widens the frames of the
    // open layers above it: nodes times depth, not nodes times layers).
    std::map<int, std::size_t> frameOf;
    for (int layer : expanded_) {
        if (!isLayer(layer))
            continue;
        Frame f;
        f.operation = layer;
        f.name = totals[std::size_t(layer)].operation.name;
        f.depth = r.depth[std::size_t(layer)];
        f.firstRank = f.firstColumn = -1; // no node yet
        frameOf[layer] = frames_.size();
        frames_.push_back(std::move(f));
    }
    auto widen = [this](Frame& f, const Node& node) {
        const bool any = f.firstRank >= 0;
        f.firstRank = any ? std::min(f.firstRank, node.rank) : node.rank;
        f.lastRank = any ? std::max(f.lastRank, node.rank) : node.rank;
        f.firstColumn = any ? std::min(f.firstColumn, node.column) : node.column;
        f.lastColumn = any ? std::max(f.lastColumn, node.column) : node.column;
    };
    for (const Node& node : nodes_)
        for (int p = node.operation; p >= 0; p = r.parent[std::size_t(p)]) {
            const auto it = frameOf.find(p);
            if (it != frameOf.end())
                widen(frames_[it->second], node);
        }
    frames_.erase(std::remove_if(frames_.begin(), frames_.end(),
                                 [](const Frame& f) { return f.firstRank < 0; }),
                  frames_.end());
    std::stable_sort(frames_.begin(), frames_.end(),
                     [](const Frame& a, const Frame& b) { return a.depth < b.depth; });
}

void OperationGraph::index() {
    rankStart_.assign(std::size_t(ranks_) + 1, 0);
    for (const Node& n : nodes_)
        ++rankStart_[std::size_t(n.rank) + 1];
    for (std::size_t r = 1; r < rankStart_.size(); ++r)
        rankStart_[r] += rankStart_[r - 1];
    byRank_.assign(nodes_.size(), 0);
    std::vector<int> next(rankStart_.begin(), rankStart_.end() - 1);
    for (std::size_t i = 0; i < nodes_.size(); ++i)
        byRank_[std::size_t(next[std::size_t(nodes_[i].rank)]++)] = int(i);

    auto top = [this](const Edge& e) {
        return std::min(nodes_[std::size_t(e.from)].rank, nodes_[std::size_t(e.to)].rank);
    };
    std::stable_sort(edges_.begin(), edges_.end(),
                     [&](const Edge& a, const Edge& b) { return top(a) < top(b); });
    edgeTop_.clear();
    longestEdge_ = 0;
    for (const Edge& e : edges_) {
        edgeTop_.push_back(top(e));
        longestEdge_ = std::max(longestEdge_, std::abs(nodes_[std::size_t(e.from)].rank -
                                                       nodes_[std::size_t(e.to)].rank));
    }
    maxima_ = {};
    for (const Node& n : nodes_)
        for (Metric m : {Cycles, Memory, Code})
            maxima_[std::size_t(m)] = std::max(maxima_[std::size_t(m)], n.value(m));
}

} // namespace tilescope::gui
