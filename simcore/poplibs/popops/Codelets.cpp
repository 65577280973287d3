#include "popops/codelets.hpp"

#include "popops/PopopsCodelets.hpp"

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
}

} // namespace popops
