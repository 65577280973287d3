#pragma once

#include "tilescope/report/OperationRollup.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace tilescope::gui {

/// The model as a graph of operations, for the Operations Graph view: a node per operation (or
/// per collapsed layer, standing for everything nested in it), an edge where a tensor one
/// operation outputs is an input of another (matched by the tensor names in their recorded debug
/// information), laid out top to bottom in data-flow order. Pure data: built from the report's
/// rolled-up operations, then laid out again whenever a layer is expanded or collapsed; the
/// operations and the tensors parsed from their debug information are shared between those
/// layouts, not copied or parsed again. Nodes and edges are indexed by layout row, so a painter
/// visits only the rows on screen.
class OperationGraph {
public:
    /// What a node is coloured by.
    enum Metric { Cycles, Memory, Code };

    struct Node {
        int operation = -1;       ///< index into the operations the graph was built from
        std::string name;         ///< the operation's name
        std::string path;         ///< its debug path (or name)
        std::string layer;        ///< its layer kind, e.g. "Dense"
        bool collapsed = false;   ///< a layer shown as one node for all it holds
        int members = 1;          ///< operations the node stands for
        std::uint64_t cycles = 0; ///< inclusive when collapsed, its own otherwise
        std::uint64_t memory = 0; ///< variable bytes, likewise
        std::uint64_t code = 0;   ///< code bytes, likewise
        std::vector<std::string> inputs, outputs; ///< "type [shape]" of its recorded tensors
        int rank = 0;                             ///< row in the layout (data flows down)
        int column = 0;                           ///< position within the row
        std::uint64_t value(Metric m) const {
            return m == Cycles ? cycles : m == Memory ? memory : code;
        }
    };
    struct Edge {
        int from = 0, to = 0; ///< node indices
        std::string tensor;   ///< the tensor's name and "type [shape]"; several joined by ", "
    };
    /// An expanded layer drawn as a frame around the nodes nested in it.
    struct Frame {
        int operation = -1;
        std::string name;
        int depth = 0; ///< nesting depth (outer frames first)
        int firstRank = 0, lastRank = 0, firstColumn = 0, lastColumn = 0;
    };

    OperationGraph() = default;
    /// The graph of `ops` (their totals, debug information and nesting); `expanded` holds the
    /// operation indices of the layers shown open, every other layer is one node.
    OperationGraph(report::RolledUpOperations ops, std::set<int> expanded);

    /// Layers open by default: all of them up to `maxNodes` nodes, else none (the top level
    /// only), so a model of thousands of operations opens as its layers, not a hairball.
    static std::set<int> defaultExpanded(const report::RolledUpOperations& ops, int maxNodes = 200);

    const std::vector<Node>& nodes() const { return nodes_; }
    /// The edges, ordered by the upper of their two rows.
    const std::vector<Edge>& edges() const { return edges_; }
    const std::vector<Frame>& frames() const { return frames_; }
    const std::set<int>& expanded() const { return expanded_; }
    const report::RolledUpOperations& operations() const { return *ops_; }
    /// Node indices of rows `firstRank`..`lastRank` (clamped to the layout), row by row.
    std::vector<int> nodesInRanks(int firstRank, int lastRank) const;
    /// Edge indices (into edges()) whose row span overlaps `firstRank`..`lastRank`.
    std::vector<int> edgesInRanks(int firstRank, int lastRank) const;
    int ranks() const { return ranks_; }
    int widestRank() const { return widest_; }
    /// True when operation `index` holds others (it can be expanded or collapsed).
    bool isLayer(int operation) const;
    /// The same graph with `operation`'s layer toggled open or closed.
    OperationGraph toggled(int operation) const;
    /// The same operations with the layers `expanded` open.
    OperationGraph withExpanded(std::set<int> expanded) const;
    /// The node standing for operation `index` (itself or the collapsed layer holding it); -1.
    int nodeOf(int operation) const;
    /// The largest value of `metric` over the nodes.
    std::uint64_t maximum(Metric metric) const;

    /// The tensors one operation's debug information records.
    struct Tensor {
        std::string name;
        std::string text; ///< "type [shape]"
    };
    struct OperationTensors {
        std::vector<Tensor> inputs, outputs;
    };

private:
    OperationGraph(std::shared_ptr<const report::RolledUpOperations> ops,
                   std::shared_ptr<const std::vector<OperationTensors>> tensors,
                   std::set<int> expanded);
    void build();
    void layOut();
    void index();

    std::shared_ptr<const report::RolledUpOperations> ops_ =
        std::make_shared<const report::RolledUpOperations>();
    std::shared_ptr<const std::vector<OperationTensors>> tensors_ =
        std::make_shared<const std::vector<OperationTensors>>();
    std::set<int> expanded_;
    std::vector<Node> nodes_;
    std::vector<Edge> edges_;
    std::vector<Frame> frames_;
    std::vector<int> nodeOfOperation_;
    std::vector<int> rankStart_; ///< rank r's nodes are byRank_[rankStart_[r] .. rankStart_[r+1])
    std::vector<int> byRank_;    ///< node indices ordered by rank
    std::vector<int> edgeTop_;   ///< the upper row of each edge (edges_ are ordered by it)
    int longestEdge_ = 0;        ///< the most rows an edge spans
    std::array<std::uint64_t, 3> maxima_{}; ///< maximum() per metric
    int ranks_ = 0;
    int widest_ = 0;
};

} // namespace tilescope::gui
