#include "popnn/codelets.hpp"

#include "popnn/PopnnCodelets.hpp"
#include "tilescope/sim/BuiltinLibraries.hpp"

#include <popops/codelets.hpp>

namespace popnn {

void addCodelets(poplar::Graph& graph) {
    popops::addCodelets(graph);
    detail::registerNonLinearityVertices(graph);
    detail::registerLossVertices(graph);
    detail::registerArgMinMaxVertices(graph);
    detail::registerPoolingVertices(graph);
}

} // namespace popnn

// Lets a deserialised executable find these vertex types by name in another process.
TILESCOPE_REGISTER_BUILTIN_LIBRARY("popnn", &popnn::addCodelets)
