#pragma once
// Lowers program trees to BSP steps: OnTileExecute, DoExchange, GlobalExchange, Sync and
// StreamCopyBegin/Mid/End. Builds the control-flow graph over steps that liveness analysis runs on,
// estimates each step's cycles per tile, and accounts the code each program adds to each tile.

#include "tilescope/sim/CompiledGraph.hpp"
#include "tilescope/sim/CostModel.hpp"
#include "tilescope/sim/ExchangeMessages.hpp"
#include "tilescope/sim/TileMappingRuns.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tilescope::sim {

/// A node of the control-flow graph: a lowered step (step >= 0) or a control point (loop head,
/// branch on a predicate, program entry). Variable accesses are by variable index; `kills` are
/// variables the node overwrites completely, `partialWrites` those it writes in part.
struct CfgNode {
    std::int64_t step = -1;
    std::vector<std::uint32_t> reads;
    std::vector<std::uint32_t> kills;
    std::vector<std::uint32_t> partialWrites;
    std::vector<std::uint32_t> successors;
};

/// Per-tile bytes of code and descriptors the lowered programs need.
struct LoweredCode {
    capture::PerTile controlCode;
    capture::PerTile controlTable;
    capture::PerTile internalExchangeCode;
    capture::PerTile hostExchangeCode;
    capture::PerTile globalExchangeCode;
    capture::PerTile hostPacketHeaders;
    capture::PerTile globalPacketHeaders;
    capture::PerTile copyDescriptors;
    capture::PerTile instrumentation;
};

/// A not-always-live temporary the compiler adds around an exchange: a vertex's remote inputs
/// received on its tile, its remote outputs before they are sent, or data received in one piece
/// that an on-tile copy then rearranges. Live from step `firstStep` to `lastStep` (inclusive).
struct ExchangeTemporary {
    std::string name;
    std::string elementType; ///< the type moved, or "char" when several are
    std::uint32_t elementBytes = 1;
    capture::PerTile bytesPerTile;
    std::uint32_t firstStep = 0, lastStep = 0;
};

/// A compute set Poplar itself adds to a Copy program for the data that stay on their tile
/// (named "Copy_<sources>_to_<destinations>/OnTileCopy-0", as Poplar's reports list them). It
/// runs one of Poplar's copy vertices on each tile that moves data within itself; `piecesPerTile`
/// counts the contiguous pieces each of those tiles copies (0: no vertex there).
struct OnTileCopySet {
    std::uint32_t computeSet = 0; ///< index in CompileRecords::computeSets
    capture::PerTile piecesPerTile;
};

class ProgramLowering {
public:
    ProgramLowering(const GraphModel& model, const CostModel& costs, bool instrument,
                    CompiledGraph& out);
    ~ProgramLowering();

    /// Lowers one engine program (Engine::run index = order of calls).
    void lowerEntryPoint(const ProgramNodePtr& program);

    const std::vector<CfgNode>& cfg() const { return cfg_; }
    /// CFG nodes where each entry point starts.
    const std::vector<std::uint32_t>& entryNodes() const { return entryNodes_; }
    const LoweredCode& code() const { return code_; }
    /// Temporaries of exchanges, in the order their steps were lowered.
    const std::vector<ExchangeTemporary>& temporaries() const { return temporaries_; }
    /// The compute sets of the Copy programs' on-tile parts, in the order they were lowered.
    const std::vector<OnTileCopySet>& onTileCopySets() const { return onTileCopySets_; }
    /// Variables streams and prints read or write (kept always live).
    const std::vector<std::uint32_t>& streamedVariables() const { return streamed_; }
    /// The model's tile mappings as runs (built as lowering needed them; more on demand).
    const TileMappingRuns& tileMappingRuns() const { return runs_; }
    /// Every lowered program node with its index in CompileRecords::programs.
    std::vector<std::pair<const ProgramNode*, std::uint32_t>> programRecords() const;

private:
    struct Lowered {
        std::uint32_t entry = 0;
        std::vector<std::uint32_t> exits;
        std::uint32_t record = 0;
    };
    struct ComputeSetCost;

    std::vector<std::uint32_t> lower(const ProgramNode& node,
                                     const std::vector<std::uint32_t>& preds,
                                     std::uint32_t parentRecord);
    std::vector<std::uint32_t> lowerLeaf(const ProgramNode& node, std::uint32_t record,
                                         std::uint32_t entry);
    std::uint32_t newNode(const std::vector<std::uint32_t>& preds);
    std::uint32_t newStep(capture::StepKind kind, std::uint32_t record, const std::string& name,
                          std::uint32_t pred);
    void addRead(std::uint32_t node, const TensorView& t);
    void addWrite(std::uint32_t node, const TensorView& t);
    void finishAccesses(std::uint32_t node);
    /// Adds code bytes to a memory category and to the program node that needs them.
    void addStepCode(std::uint32_t record, capture::PerTile& category, std::uint32_t tile,
                     std::uint64_t bytes);
    const ComputeSetCost& computeSetCost(std::uint32_t cs);
    /// Emits Sync + exchange steps moving `bytesPerTile` (cycles) with the code and packet
    /// headers of `messages`; returns the last node.
    std::uint32_t emitExchange(std::uint32_t record, const std::string& name, std::uint32_t pred,
                               const capture::PerTile& bytesPerTile,
                               const ExchangeMessages& messages);
    /// Records a temporary of `bytesPerTile` live from the step of CFG node `from` to that of `to`.
    void addTemporary(const std::string& name, const std::string& elementType,
                      std::uint32_t elementBytes, const capture::PerTile& bytesPerTile,
                      std::uint32_t from, std::uint32_t to);
    /// Emits Sync + StreamCopyBegin/Mid/End moving `tensor` over the host link; `alsoReads` is
    /// a tensor the copy reads on the device besides (a remote copy's offsets).
    std::uint32_t emitStreamCopy(std::uint32_t record, const std::string& name, std::uint32_t pred,
                                 const TensorView& tensor, bool toDevice, StepAction action,
                                 std::uint32_t actionIndex, const TensorView* alsoReads = nullptr);
    /// Emits the steps of a CrossReplica program (CrossReplicaLowering.cpp): a ring over the
    /// replicas' IPUs, each step a sync, an IPU-Link exchange and (reducing) a compute; the
    /// collective's data effect is at the last step. Returns the last node.
    std::uint32_t emitCrossReplica(const ProgramNode& n, std::uint32_t record, std::uint32_t pred);
    std::uint32_t tileOf(const ElementRange& r, std::uint64_t offset) const;
    std::uint32_t ipuOf(std::uint32_t tile) const { return tile / model_.target.tilesPerIpu; }
    capture::PerTile zeros() const { return capture::PerTile(model_.target.numTiles(), 0); }

    const GraphModel& model_;
    const CostModel& costs_;
    TileMappingRuns runs_; ///< the model's tile mappings as runs
    /// By vertex type, the first estimator registered for it (null: none).
    std::vector<const PerfEstimator*> estimators_;
    bool instrument_;
    CompiledGraph& out_;
    std::vector<CfgNode> cfg_;
    std::vector<std::uint32_t> entryNodes_;
    std::vector<std::uint32_t> streamed_;
    LoweredCode code_;
    std::vector<ExchangeTemporary> temporaries_;
    std::vector<OnTileCopySet> onTileCopySets_;
    /// Per stream (by handle), the tiles already charged its packet headers.
    std::map<std::string, std::vector<bool>> streamTiles_;
    std::map<const ProgramNode*, Lowered> lowered_;
    std::map<std::uint32_t, Lowered> functions_;
    std::map<std::uint32_t, std::vector<std::pair<std::uint64_t, std::uint64_t>>> pendingWrites_;
    std::map<std::uint32_t, std::unique_ptr<ComputeSetCost>> csCosts_;
};

} // namespace tilescope::sim
