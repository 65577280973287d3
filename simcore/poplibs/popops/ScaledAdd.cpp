// popops::scaledAddTo and popops::scaledSubtractFrom in all the SDK's forms, and their vertices.

#include "popops/ScaledAdd.hpp"

#include "common/ElementWiseBuilder.hpp"
#include "popops/Cast.hpp"
#include "popops/ElementWiseCycles.hpp"
#include "popops/ElementWiseVertices.hpp"
#include "popops/PopopsCodelets.hpp"
#include "tilescope/sim/BuiltinVertex.hpp"

#include <poplar/exceptions.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

namespace pl = tilescope::poplibs;
using tilescope::sim::abi::describeField;
using tilescope::sim::abi::FieldVisitor;

namespace {

/// data[i] = scaleA * data[i] + scaleB * deltas[i] with constant scales, computed in float for
/// HALF.
template <typename T> class ScaledAdd : public poplar::Vertex {
public:
    poplar::InOut<poplar::Vector<T>> data;
    poplar::Input<poplar::Vector<T>> deltas;
    float scaleA = 1.0f;
    float scaleB = 1.0f;
    bool compute() {
        using C = pl::popops_vertices::ComputeType<T>;
        for (std::size_t i = 0; i < data.size(); ++i)
            data[i] = static_cast<T>(static_cast<C>(scaleA) * static_cast<C>(data[i]) +
                                     static_cast<C>(scaleB) * static_cast<C>(deltas[i]));
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<ScaledAdd*>(o);
        describeField(f, "data", v.data);
        describeField(f, "deltas", v.deltas);
        describeField(f, "scaleA", v.scaleA);
        describeField(f, "scaleB", v.scaleB);
    }
};

/// As ScaledAdd with the scales read from scalar FLOAT tensors at run time; `xMinusAx` uses
/// 1 - scaleA for A's factor and `subtract` negates scaleB.
template <typename T> class ScaledAddTensor : public poplar::Vertex {
public:
    poplar::InOut<poplar::Vector<T>> data;
    poplar::Input<poplar::Vector<T>> deltas;
    poplar::Input<float> scaleA;
    poplar::Input<float> scaleB;
    bool xMinusAx = false;
    bool subtract = false;
    bool compute() {
        using C = pl::popops_vertices::ComputeType<T>;
        const float a = xMinusAx ? 1.0f - float(scaleA) : float(scaleA);
        const float b = subtract ? -float(scaleB) : float(scaleB);
        for (std::size_t i = 0; i < data.size(); ++i)
            data[i] = static_cast<T>(static_cast<C>(a) * static_cast<C>(data[i]) +
                                     static_cast<C>(b) * static_cast<C>(deltas[i]));
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<ScaledAddTensor*>(o);
        describeField(f, "data", v.data);
        describeField(f, "deltas", v.deltas);
        describeField(f, "scaleA", v.scaleA);
        describeField(f, "scaleB", v.scaleB);
        describeField(f, "xMinusAx", v.xMinusAx);
        describeField(f, "subtract", v.subtract);
    }
};

/// The scales of one call: constants, or scalar tensors (null scaleA meaning 1).
struct Scales {
    bool fromTensors = false;
    float a = 1.0f, b = 1.0f;
    const poplar::Tensor* tensorA = nullptr;
    const poplar::Tensor* tensorB = nullptr;
    bool xMinusAx = false;
    bool subtract = false;
};

/// A scale tensor as the scalar FLOAT the vertex reads (HALF is cast first).
poplar::Tensor scaleAsFloat(poplar::Graph& graph, const poplar::Tensor& t,
                            poplar::program::Sequence& prog, const std::string& api,
                            pl::PoplibsOpDebugInfo& di) {
    if (t.numElements() != 1 ||
        (t.elementType() != poplar::FLOAT && t.elementType() != poplar::HALF))
        throw poputil::poplibs_error("popops::" + api + ": scale tensor '" + t.getName() + "' " +
                                     t.shapeToString() + " of type " + t.elementType().toString() +
                                     " must be a single FLOAT or HALF element");
    const poplar::Tensor scalar = t.reshape({});
    if (scalar.elementType() == poplar::FLOAT)
        return scalar;
    return popops::cast(graph, scalar, poplar::FLOAT, prog, {di, "scaleToFloat"});
}

void scaledAdd(poplar::Graph& graph, const poplar::Tensor& A, poplar::Tensor B,
               const Scales& scales, poplar::program::Sequence& prog,
               const poplar::DebugContext& debugContext, const std::string& api) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(A, B), api);
    const auto type = A.elementType();
    if (type != poplar::FLOAT && type != poplar::HALF)
        throw poputil::poplibs_error("popops::" + api + ": tensor '" + A.getName() + "' has type " +
                                     type.toString() + "; FLOAT and HALF are supported");
    if (B.elementType() != type) {
        if (B.elementType() != poplar::FLOAT && B.elementType() != poplar::HALF)
            throw poputil::poplibs_error("popops::" + api + ": tensor '" + B.getName() +
                                         "' of type " + B.elementType().toString() +
                                         " cannot be added to '" + A.getName() + "' (" +
                                         type.toString() + "); FLOAT and HALF are supported");
        B = popops::cast(graph, B, type, prog, {di, "castB"});
    }
    if (A.shape() != B.shape())
        throw poputil::poplibs_error("popops::" + api + ": tensor '" + A.getName() + "' of shape " +
                                     A.shapeToString() + " and tensor '" + B.getName() +
                                     "' of shape " + B.shapeToString() +
                                     " must have the same shape");
    const auto& target = graph.getTarget();
    const auto cycles = [&](std::size_t n) {
        return pl::cycles::scaledAddWorkerCycles(target, type, n);
    };
    if (scales.fromTensors) {
        poplar::Tensor a;
        if (scales.tensorA) {
            a = scaleAsFloat(graph, *scales.tensorA, prog, api, di);
        } else {
            a = graph.addConstant(poplar::FLOAT, {}, 1.0f, {di, "scaleA"});
            graph.setTileMapping(a, 0);
        }
        const poplar::Tensor b = scaleAsFloat(graph, *scales.tensorB, prog, api, di);
        poplar::ComputeSet cs = graph.addComputeSet({di, api});
        pl::addElementWiseVertices(graph, cs,
                                   poputil::templateVertex("popops::ScaledAddTensor", type), A,
                                   {{"data", A}, {"deltas", B}}, cycles, [&](poplar::VertexRef v) {
                                       graph.connect(v["scaleA"], a);
                                       graph.connect(v["scaleB"], b);
                                       graph.setInitialValue(v["xMinusAx"], scales.xMinusAx);
                                       graph.setInitialValue(v["subtract"], scales.subtract);
                                   });
        prog.add(poplar::program::Execute(cs, {di}));
    } else {
        const float a = scales.xMinusAx ? 1.0f - scales.a : scales.a;
        const float b = scales.subtract ? -scales.b : scales.b;
        di.setValue("scaleA", a);
        di.setValue("scaleB", b);
        poplar::ComputeSet cs = graph.addComputeSet({di, api});
        pl::addElementWiseVertices(graph, cs, poputil::templateVertex("popops::ScaledAdd", type), A,
                                   {{"data", A}, {"deltas", B}}, cycles, [&](poplar::VertexRef v) {
                                       graph.setInitialValue(v["scaleA"], a);
                                       graph.setInitialValue(v["scaleB"], b);
                                   });
        prog.add(poplar::program::Execute(cs, {di}));
    }
    di.addFlops(3 * A.numElements());
}

Scales constantScales(float a, float b, bool subtract,
                      ScaledAddSpecialisation speciality = ScaledAddSpecialisation::DEFAULT) {
    Scales s;
    s.a = a;
    s.b = b;
    s.subtract = subtract;
    s.xMinusAx = speciality == ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY;
    return s;
}

Scales tensorScales(const poplar::Tensor* a, const poplar::Tensor& b, bool subtract,
                    ScaledAddSpecialisation speciality = ScaledAddSpecialisation::DEFAULT) {
    Scales s;
    s.fromTensors = true;
    s.tensorA = a;
    s.tensorB = &b;
    s.subtract = subtract;
    s.xMinusAx = speciality == ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY;
    return s;
}

template <typename T> void registerFor(poplar::Graph& graph) {
    const auto type = poplar::equivalent_device_type<T>().value;
    tilescope::sim::registerBuiltinVertex<ScaledAdd<T>>(
        graph, poputil::templateVertex("popops::ScaledAdd", type), &ScaledAdd<T>::visit);
    tilescope::sim::registerBuiltinVertex<ScaledAddTensor<T>>(
        graph, poputil::templateVertex("popops::ScaledAddTensor", type),
        &ScaledAddTensor<T>::visit);
}

} // namespace

namespace detail {
void registerScaledAddVertices(poplar::Graph& graph) {
    registerFor<float>(graph);
    registerFor<poplar::half>(graph);
}
} // namespace detail

void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                 poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                 const poplar::OptionFlags&) {
    scaledAdd(graph, A, B, constantScales(1.0f, scaleB, false), prog, debugContext, "scaledAddTo");
}

void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                        poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                        const poplar::OptionFlags&) {
    scaledAdd(graph, A, B, constantScales(1.0f, scaleB, true), prog, debugContext,
              "scaledSubtractFrom");
}

void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B, poplar::Tensor scaleB,
                 poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                 const poplar::OptionFlags&) {
    scaledAdd(graph, A, B, tensorScales(nullptr, scaleB, false), prog, debugContext, "scaledAddTo");
}

void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor B,
                        poplar::Tensor scaleB, poplar::program::Sequence& prog,
                        const poplar::DebugContext& debugContext, const poplar::OptionFlags&) {
    scaledAdd(graph, A, B, tensorScales(nullptr, scaleB, true), prog, debugContext,
              "scaledSubtractFrom");
}

void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor scaleA, poplar::Tensor B,
                 poplar::Tensor scaleB, poplar::program::Sequence& prog,
                 const poplar::DebugContext& debugContext, const poplar::OptionFlags& options) {
    scaledAddTo(graph, A, scaleA, B, scaleB, prog, ScaledAddSpecialisation::DEFAULT, debugContext,
                options);
}

void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor scaleA, poplar::Tensor B,
                 poplar::Tensor scaleB, poplar::program::Sequence& prog,
                 const ScaledAddSpecialisation speciality, const poplar::DebugContext& debugContext,
                 const poplar::OptionFlags&) {
    scaledAdd(graph, A, B, tensorScales(&scaleA, scaleB, false, speciality), prog, debugContext,
              "scaledAddTo");
}

void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, float scaleA, poplar::Tensor B,
                 float scaleB, poplar::program::Sequence& prog,
                 const poplar::DebugContext& debugContext, const poplar::OptionFlags& options) {
    scaledAddTo(graph, A, scaleA, B, scaleB, prog, ScaledAddSpecialisation::DEFAULT, debugContext,
                options);
}

void scaledAddTo(poplar::Graph& graph, poplar::Tensor A, float scaleA, poplar::Tensor B,
                 float scaleB, poplar::program::Sequence& prog,
                 const ScaledAddSpecialisation speciality, const poplar::DebugContext& debugContext,
                 const poplar::OptionFlags&) {
    scaledAdd(graph, A, B, constantScales(scaleA, scaleB, false, speciality), prog, debugContext,
              "scaledAddTo");
}

void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, poplar::Tensor scaleA,
                        poplar::Tensor B, poplar::Tensor scaleB, poplar::program::Sequence& prog,
                        const poplar::DebugContext& debugContext, const poplar::OptionFlags&) {
    scaledAdd(graph, A, B, tensorScales(&scaleA, scaleB, true), prog, debugContext,
              "scaledSubtractFrom");
}

void scaledSubtractFrom(poplar::Graph& graph, poplar::Tensor A, float scaleA, poplar::Tensor B,
                        float scaleB, poplar::program::Sequence& prog,
                        const poplar::DebugContext& debugContext, const poplar::OptionFlags&) {
    scaledAdd(graph, A, B, constantScales(scaleA, scaleB, true), prog, debugContext,
              "scaledSubtractFrom");
}

} // namespace popops
