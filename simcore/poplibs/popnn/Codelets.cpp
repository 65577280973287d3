#include "popnn/codelets.hpp"

#include "popnn/PopnnCodelets.hpp"

#include <popops/codelets.hpp>

namespace popnn {

void addCodelets(poplar::Graph& graph) {
    popops::addCodelets(graph);
    detail::registerNonLinearityVertices(graph);
    detail::registerLossVertices(graph);
    detail::registerArgMinMaxVertices(graph);
}

} // namespace popnn
