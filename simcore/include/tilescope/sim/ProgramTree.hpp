#pragma once
// The program tree built by poplar::program classes and compiled by the GraphCompiler.

#include "tilescope/capture/ProfileRecords.hpp"
#include "tilescope/sim/Collectives.hpp"
#include "tilescope/sim/TensorView.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::sim {

/// A node of a program. Children by kind: Sequence: its items; Repeat: {body};
/// RepeatWhileTrue/False: {condition, body}; If: {then, else}; Switch: {cases..., default}.
/// CrossReplica is a leaf. Leaves refer to graph objects by index; `graph` identifies the graph
/// model they belong to so an Engine can reject programs built for another graph.
struct ProgramNode {
    capture::ProgramKind kind = capture::ProgramKind::Sequence;
    std::string name;
    std::vector<std::shared_ptr<ProgramNode>> children;
    std::vector<std::int64_t> caseValues;  ///< Switch
    std::uint64_t repeatCount = 0;         ///< Repeat
    std::optional<TensorView> predicate;   ///< RepeatWhile*, If, Switch
    std::optional<TensorView> source;      ///< Copy, StreamCopy to host, PrintTensor
    std::optional<TensorView> destination; ///< Copy, StreamCopy to device, WriteUndef
    std::uint32_t computeSet = 0;          ///< Execute
    std::uint32_t stream = 0;              ///< StreamCopy (of a remote buffer if `remote`)
    bool remote = false;                   ///< StreamCopy to or from a remote buffer
    std::optional<TensorView> offset;      ///< remote StreamCopy: rows of the buffer, 0 if none
    std::uint32_t function = 0;            ///< Call
    std::string title;                     ///< PrintTensor
    bool globalSync = false;               ///< Sync across IPUs
    std::uint64_t operation = 0;           ///< the DebugInfo it was created under, 0: none
    const void* graph = nullptr;
    /// Sequence of poplar::cycleCount / cycleStamp: receives the cycles its children take, or
    /// (cycleStamp) the run's cycle counter, as two UNSIGNED_INT words (lower, upper).
    std::optional<TensorView> cycleCounter;
    bool cycleStamp = false;
    /// CrossReplica: the collective and its reduction, from `source` to `destination` (each
    /// replica's own tensors).
    CollectiveKind collective = CollectiveKind::AllReduce;
    ReduceOp reduceOp = ReduceOp::Add;
    /// CrossReplica: the groups of replicas it runs within (default: every replica).
    ReplicaGrouping grouping;
    /// CrossReplica: per tile, the cycles of reducing one ring step's fragment (PopLibs'
    /// element-wise estimators, given by the face that builds the node); empty: no reduction.
    std::vector<std::uint64_t> reduceCyclesPerTile;
};

using ProgramNodePtr = std::shared_ptr<ProgramNode>;

} // namespace tilescope::sim
