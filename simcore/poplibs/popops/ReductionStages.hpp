#pragma once
// The two-stage form of popops::reduce: partials are first reduced on the tiles that hold them
// (PopLibs' ReduceOnTile stage), then each output from one value per tile, when a single stage
// would make some output's tile receive more partials than PopLibs' final stage ever does.

#include "common/ElementWiseBuilder.hpp"

#include <cstdint>
#include <functional>
#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>
#include <string>
#include <vector>

namespace popops::detail {

/// PopLibs adds reduction stages while more than this many partials per output remain
/// (lib/popops/reduction/ReductionPlan.cpp), so its last stage reads at most this many.
constexpr std::size_t kFinalStageMaxPartials = 32;

/// What the two stages run: vertex types, the intermediate type, and the final stage's state.
struct ReductionStageVertices {
    std::string firstStage;  ///< reduces a tile's partials of one output into one value
    std::string secondStage; ///< reduces an output's per-tile values (update, scale)
    /// Reduces groups of per-tile values into intermediate values, in the intermediate type,
    /// when an output has more than kFinalStageMaxPartials of them.
    std::string intermediateStage;
    poplar::Type intermediateType;
    bool update = false;
    poplar::Tensor scale; ///< connected to the second stage's `scale` when valid
    /// Cycles of one vertex reducing `outputs` outputs of `partials` values of `type` each.
    std::function<std::uint64_t(const poplar::Type& type, std::size_t outputs, std::size_t partials,
                                bool update)>
        cycles;
};

/// Adds both stages' compute sets to `css` and returns true when staging is needed for
/// `partials` ([outputs, partialsPerOutput], completely mapped) reduced into `out` (mapped);
/// returns false, adding nothing, when one stage suffices.
bool addStagedReduction(poplar::Graph& graph, const poplar::Tensor& partials,
                        const poplar::Tensor& out, const ReductionStageVertices& vertices,
                        tilescope::poplibs::PoplibsOpDebugInfo& di,
                        std::vector<poplar::ComputeSet>& css);

} // namespace popops::detail
