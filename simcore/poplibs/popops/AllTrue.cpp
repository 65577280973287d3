// popops::allTrue: a LOGICAL_AND reduction of a whole BOOL tensor to one element.

#include "popops/AllTrue.hpp"

#include "common/ElementWiseBuilder.hpp"
#include "popops/Fill.hpp"
#include "popops/Reduction.hpp"

#include <poplar/exceptions.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

poplar::Tensor allTrue(poplar::Graph& graph, poplar::Tensor A, poplar::program::Sequence& prog,
                       const poplar::DebugContext& debugContext) {
    tilescope::poplibs::PoplibsOpDebugInfo di(debugContext, DI_ARGS(A), "allTrue");
    if (A.elementType() != poplar::BOOL)
        throw poputil::poplibs_error("popops::allTrue: tensor '" + A.getName() + "' has type " +
                                     A.elementType().toString() + "; allTrue takes a BOOL tensor");
    if (A.numElements() == 0) {
        // The AND of nothing is true; there are no partials to reduce.
        poplar::Tensor out = graph.addVariable(poplar::BOOL, {}, {di, "out"});
        graph.setTileMapping(out, 0);
        fill(graph, out, prog, 1.0, {di, "empty"});
        return out;
    }
    return reduce(graph, A.flatten(), {0}, Operation::LOGICAL_AND, prog, {di}).reshape({});
}

} // namespace popops
