// popops::scaledAddTo and popops::scaledSubtractFrom, and their vertex.

#include "popops/ScaledAdd.hpp"

#include "common/CycleEstimates.hpp"
#include "common/ElementWiseBuilder.hpp"
#include "popops/ElementWiseVertices.hpp"
#include "popops/PopopsCodelets.hpp"
#include "tilescope/sim/BuiltinVertex.hpp"

#include <poplar/exceptions.hpp>
#include <poputil/VertexTemplates.hpp>

namespace popops {

namespace pl = tilescope::poplibs;
using tilescope::sim::abi::describeField;
using tilescope::sim::abi::FieldVisitor;

namespace {

/// data[i] += scaleB * deltas[i], computed in float for HALF.
template <typename T> class ScaledAdd : public poplar::Vertex {
public:
    poplar::InOut<poplar::Vector<T>> data;
    poplar::Input<poplar::Vector<T>> deltas;
    float scaleB = 1.0f;
    bool compute() {
        using C = pl::popops_vertices::ComputeType<T>;
        for (std::size_t i = 0; i < data.size(); ++i)
            data[i] = static_cast<T>(static_cast<C>(data[i]) +
                                     static_cast<C>(scaleB) * static_cast<C>(deltas[i]));
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<ScaledAdd*>(o);
        describeField(f, "data", v.data);
        describeField(f, "deltas", v.deltas);
        describeField(f, "scaleB", v.scaleB);
    }
};

void scaledAdd(poplar::Graph& graph, const poplar::Tensor& A, const poplar::Tensor& B, float scaleB,
               poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
               const std::string& api) {
    pl::PoplibsOpDebugInfo di(debugContext, api);
    di.setValue("scaleB", scaleB);
    const auto type = A.elementType();
    if (type != poplar::FLOAT && type != poplar::HALF)
        throw poplar::poplar_error("popops::" + api + ": tensor '" + A.getName() + "' has type " +
                                   type.toString() + "; FLOAT and HALF are supported");
    if (B.elementType() != type)
        throw poplar::poplar_error("popops::" + api + ": tensor '" + B.getName() + "' of type " +
                                   B.elementType().toString() + " must have the type of '" +
                                   A.getName() + "' (" + type.toString() + ")");
    if (A.shape() != B.shape())
        throw poplar::poplar_error("popops::" + api + ": tensor '" + A.getName() + "' of shape " +
                                   A.shapeToString() + " and tensor '" + B.getName() +
                                   "' of shape " + B.shapeToString() + " must have the same shape");
    poplar::ComputeSet cs = graph.addComputeSet({di, api});
    const auto& target = graph.getTarget();
    pl::addElementWiseVertices(
        graph, cs, poputil::templateVertex("popops::ScaledAdd", type), A,
        {{"data", A}, {"deltas", B}},
        [&](std::size_t n) { return pl::cycles::elementWise(target, type, n, 2, false); },
        [&](poplar::VertexRef v) { graph.setInitialValue(v["scaleB"], scaleB); });
    prog.add(poplar::program::Execute(cs, {di}));
    di.addFlops(2 * A.numElements());
}

} // namespace

namespace detail {
void registerScaledAddVertices(poplar::Graph& graph) {
    tilescope::sim::registerBuiltinVertex<ScaledAdd<float>>(
        graph, poputil::templateVertex("popops::ScaledAdd", poplar::FLOAT),
        &ScaledAdd<float>::visit);
    tilescope::sim::registerBuiltinVertex<ScaledAdd<poplar::half>>(
        graph, poputil::templateVertex("popops::ScaledAdd", poplar::HALF),
        &ScaledAdd<poplar::half>::visit);
}
} // namespace detail

void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                 poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                 const poplar::OptionFlags&) {
    scaledAdd(graph, A, B, scaleB, prog, debugContext, "scaledAddTo");
}

void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                        poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                        const poplar::OptionFlags&) {
    scaledAdd(graph, A, B, -scaleB, prog, debugContext, "scaledSubtractFrom");
}

} // namespace popops
