#include "poplin/codelets.hpp"

#include "poplin/MatMulVertex.hpp"
#include "tilescope/sim/BuiltinLibraries.hpp"
#include "tilescope/sim/BuiltinVertex.hpp"

#include <popops/codelets.hpp>
#include <poputil/VertexTemplates.hpp>

namespace poplin {

namespace {

template <typename In, typename Partial> void registerBlock(poplar::Graph& graph) {
    using V = tilescope::poplibs::MatMulBlock<In, Partial>;
    tilescope::sim::registerBuiltinVertex<V>(
        graph,
        poputil::templateVertex("poplin::MatMulBlock", poplar::equivalent_device_type<In>().value,
                                poplar::equivalent_device_type<Partial>().value),
        &V::visit);
}

} // namespace

void addCodelets(poplar::Graph& graph) {
    popops::addCodelets(graph);
    registerBlock<float, float>(graph);
    registerBlock<float, poplar::half>(graph);
    registerBlock<poplar::half, float>(graph);
    registerBlock<poplar::half, poplar::half>(graph);
}

} // namespace poplin

// Lets a deserialised executable find these vertex types by name in another process.
TILESCOPE_REGISTER_BUILTIN_LIBRARY("poplin", &poplin::addCodelets)
