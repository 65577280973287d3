#include "poplin/codelets.hpp"

#include "poplin/ConvVertices.hpp"
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

template <typename Out, typename Partial> void registerReduceAdd(poplar::Graph& graph) {
    using V = tilescope::poplibs::ReduceAdd<Out, Partial>;
    tilescope::sim::registerBuiltinVertex<V>(
        graph,
        poputil::templateVertex("poplin::ReduceAdd", poplar::equivalent_device_type<Out>().value,
                                poplar::equivalent_device_type<Partial>().value),
        &V::visit);
}

template <typename In, typename Partial> void registerConv(poplar::Graph& graph) {
    namespace pl = tilescope::poplibs;
    const poplar::Type in = poplar::equivalent_device_type<In>().value;
    const poplar::Type partial = poplar::equivalent_device_type<Partial>().value;
    const auto add = [&](auto* tag, const char* name) {
        using V = std::remove_pointer_t<decltype(tag)>;
        tilescope::sim::registerBuiltinVertex<V>(graph, poputil::templateVertex(name, in, partial),
                                                 &V::visit);
    };
    add(static_cast<pl::ConvPartial<In, Partial, 0>*>(nullptr), "poplin::ConvPartial1x1Out");
    add(static_cast<pl::ConvPartial<In, Partial, 1>*>(nullptr), "poplin::ConvPartialnx1");
    add(static_cast<pl::ConvPartial<In, Partial, 2>*>(nullptr), "poplin::ConvPartialHorizontalMac");
    // PopLibs instantiates its SLIC vertex for HALF inputs and FLOAT partials only.
    if constexpr (std::is_same_v<In, poplar::half> && std::is_same_v<Partial, float>)
        add(static_cast<pl::ConvPartialSlic<In, Partial>*>(nullptr), "poplin::ConvPartial1x4SLIC");
    add(static_cast<pl::ConvWeightDeltas<In, Partial>*>(nullptr), "poplin::ConvWeightDeltas");
}

} // namespace

void addCodelets(poplar::Graph& graph) {
    popops::addCodelets(graph);
    registerBlock<float, float>(graph);
    registerBlock<float, poplar::half>(graph);
    registerBlock<poplar::half, float>(graph);
    registerBlock<poplar::half, poplar::half>(graph);
    registerReduceAdd<float, float>(graph);
    registerReduceAdd<float, poplar::half>(graph);
    registerReduceAdd<poplar::half, float>(graph);
    registerReduceAdd<poplar::half, poplar::half>(graph);
    registerConv<float, float>(graph);
    registerConv<float, poplar::half>(graph);
    registerConv<poplar::half, float>(graph);
    registerConv<poplar::half, poplar::half>(graph);
}

} // namespace poplin

// Lets a deserialised executable find these vertex types by name in another process.
TILESCOPE_REGISTER_BUILTIN_LIBRARY("poplin", &poplin::addCodelets)
