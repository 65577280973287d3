#include "popops/codelets.hpp"

#include "popops/PopopsCodelets.hpp"
#include "popops/TopKRows.hpp"
#include "tilescope/sim/BuiltinLibraries.hpp"

namespace popops {

void addCodelets(poplar::Graph& graph) {
    detail::registerElementWiseVertices(graph);
    detail::registerTernaryVertices(graph);
    detail::registerEncodingVertices(graph);
    detail::registerFillAndCastVertices(graph);
    detail::registerScaledAddVertices(graph);
    detail::registerReduceVertices(graph);
    detail::registerMapExprVertices(graph);
    detail::registerDynamicSliceVertices(graph);
    detail::registerMultiSliceVertices(graph);
    detail::registerTopKVertices(graph);
    detail::registerTransposeVertices(graph);
}

} // namespace popops

// Lets a deserialised executable find these vertex types by name in another process.
TILESCOPE_REGISTER_BUILTIN_LIBRARY("popops", &popops::addCodelets)
