// popnn non-linearities: element-wise vertices for SIGMOID, RELU, TANH and GELU and their
// gradients; SOFTMAX composed of popops reductions and element-wise operations.

#include "popnn/NonLinearity.hpp"

#include "common/ElementWiseBuilder.hpp"
#include "popnn/NonLinearityCycles.hpp"
#include "popnn/PopnnCodelets.hpp"
#include "popops/ElementWiseVertices.hpp"
#include "tilescope/sim/BuiltinVertex.hpp"

#include <cmath>
#include <poplar/exceptions.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>
#include <popops/Reduction.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popnn {

namespace pl = tilescope::poplibs;
using poplar::Tensor;
using tilescope::sim::abi::describeField;
using tilescope::sim::abi::FieldVisitor;

namespace {

const char* name(NonLinearityType nl) {
    switch (nl) {
    case NonLinearityType::SIGMOID:
        return "SIGMOID";
    case NonLinearityType::RELU:
        return "RELU";
    case NonLinearityType::TANH:
        return "TANH";
    case NonLinearityType::GELU:
        return "GELU";
    case NonLinearityType::SOFTMAX:
        return "SOFTMAX";
    }
    return "?";
}

template <NonLinearityType NL> float apply(float x) {
    if constexpr (NL == NonLinearityType::SIGMOID)
        return 1.0f / (1.0f + std::exp(-x));
    else if constexpr (NL == NonLinearityType::RELU)
        return x > 0.0f ? x : 0.0f;
    else if constexpr (NL == NonLinearityType::TANH)
        return std::tanh(x);
    else
        return 0.5f * x * (1.0f + std::tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
}

/// f'(x) as a function of the vertex's `act` input: y = f(x) for SIGMOID, RELU and TANH, whose
/// derivatives are functions of f(x); x itself for GELU (as PopLibs takes it), differentiating
/// the same tanh approximation as the forward pass:
/// 0.5 (1 + tanh(u)) + 0.5 x (1 - tanh(u)^2) sqrt(2/pi) (1 + 3 * 0.044715 x^2).
template <NonLinearityType NL> float derivativeFromAct(float a) {
    if constexpr (NL == NonLinearityType::SIGMOID)
        return a * (1.0f - a);
    else if constexpr (NL == NonLinearityType::RELU)
        return a > 0.0f ? 1.0f : 0.0f;
    else if constexpr (NL == NonLinearityType::TANH)
        return 1.0f - a * a;
    else {
        const float x2 = a * a;
        const float th = std::tanh(0.7978845608f * (a + 0.044715f * x2 * a));
        return 0.5f * (1.0f + th) +
               0.5f * a * (1.0f - th * th) * 0.7978845608f * (1.0f + 3.0f * 0.044715f * x2);
    }
}

template <typename T, NonLinearityType NL> class NonLinearity1D : public poplar::Vertex {
public:
    poplar::InOut<poplar::Vector<T>> data;
    bool compute() {
        for (std::size_t i = 0; i < data.size(); ++i)
            data[i] = static_cast<T>(apply<NL>(static_cast<float>(data[i])));
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        describeField(f, "data", static_cast<NonLinearity1D*>(o)->data);
    }
};

template <typename T, NonLinearityType NL> class NonLinearityGrad1D : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<T>> outGrad;
    poplar::Input<poplar::Vector<T>> out;
    poplar::Output<poplar::Vector<T>> inGrad;
    bool compute() {
        for (std::size_t i = 0; i < inGrad.size(); ++i)
            inGrad[i] = static_cast<T>(static_cast<float>(outGrad[i]) *
                                       derivativeFromAct<NL>(static_cast<float>(out[i])));
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<NonLinearityGrad1D*>(o);
        describeField(f, "outGrad", v.outGrad);
        describeField(f, "out", v.out);
        describeField(f, "inGrad", v.inGrad);
    }
};

std::string vertexName(const char* base, const poplar::Type& type, NonLinearityType nl) {
    return poputil::templateVertex(base, type, std::string("popnn::NonLinearityType::") + name(nl));
}

template <typename T, NonLinearityType NL> void registerFor(poplar::Graph& graph) {
    const poplar::Type type = poplar::equivalent_device_type<T>().value;
    tilescope::sim::registerBuiltinVertex<NonLinearity1D<T, NL>>(
        graph, vertexName("popnn::NonLinearity1D", type, NL), &NonLinearity1D<T, NL>::visit);
    tilescope::sim::registerBuiltinVertex<NonLinearityGrad1D<T, NL>>(
        graph, vertexName("popnn::NonLinearityGrad1D", type, NL),
        &NonLinearityGrad1D<T, NL>::visit);
}

template <typename T> void registerType(poplar::Graph& graph) {
    registerFor<T, NonLinearityType::SIGMOID>(graph);
    registerFor<T, NonLinearityType::RELU>(graph);
    registerFor<T, NonLinearityType::TANH>(graph);
    registerFor<T, NonLinearityType::GELU>(graph);
}

void checkType(const std::string& api, const Tensor& t) {
    if (t.elementType() != poplar::FLOAT && t.elementType() != poplar::HALF)
        throw poputil::poplibs_error("popnn::" + api + ": tensor '" + t.getName() + "' has type " +
                                     t.elementType().toString() + "; FLOAT and HALF are supported");
}

/// Softmax over the innermost dimension of `t`, written to `out` (which may be `t`).
void softmax(poplar::Graph& graph, const Tensor& t, const Tensor& out,
             poplar::program::Sequence& prog, pl::PoplibsOpDebugInfo& di) {
    if (t.rank() == 0 || t.numElements() == 0)
        throw poputil::poplibs_error("popnn::nonLinearity: SOFTMAX needs a non-empty tensor of "
                                     "rank >= 1, got '" +
                                     t.getName() + "' of shape " + t.shapeToString());
    const std::size_t cols = t.dim(t.rank() - 1);
    const std::size_t rows = t.numElements() / cols;
    const Tensor in2d = t.reshape({rows, cols});
    const Tensor out2d = out.reshape({rows, cols});
    const Tensor maxima =
        popops::reduce(graph, in2d, {1}, popops::Operation::MAX, prog, {di, "max"});
    const Tensor shifted = popops::sub(graph, in2d, maxima.reshape({rows, 1}), prog, {di, "shift"});
    popops::expInPlace(graph, shifted, prog, {di, "exp"});
    // Sums accumulate in FLOAT; HALF results divide by the sums rounded to HALF.
    const Tensor sums = popops::reduce(graph, shifted, poplar::FLOAT, {1}, popops::Operation::ADD,
                                       prog, {di, "sum"});
    const Tensor normalised = popops::div(
        graph, shifted,
        t.elementType() == poplar::FLOAT
            ? sums.reshape({rows, 1})
            : popops::cast(graph, sums, t.elementType(), prog, {di, "cast"}).reshape({rows, 1}),
        prog, {di, "normalise"});
    prog.add(poplar::program::Copy(normalised, out2d, false, {di, "copy"}));
}

/// Softmax's input gradient from its outputs y over the innermost dimension:
/// dx = y * (dy - sum_j(dy_j * y_j)), the sum accumulated in FLOAT.
Tensor softmaxInputGradient(poplar::Graph& graph, const Tensor& act, const Tensor& outGradient,
                            poplar::program::Sequence& prog, pl::PoplibsOpDebugInfo& di) {
    if (act.rank() == 0 || act.numElements() == 0)
        throw poputil::poplibs_error("popnn::nonLinearityInputGradient: SOFTMAX needs a non-empty "
                                     "tensor of rank >= 1, got '" +
                                     act.getName() + "' of shape " + act.shapeToString());
    namespace pe = popops::expr;
    const std::size_t cols = act.dim(act.rank() - 1);
    const std::size_t rows = act.numElements() / cols;
    const Tensor y = act.reshape({rows, cols});
    const Tensor dy = outGradient.reshape({rows, cols});
    const Tensor products = popops::mul(graph, dy, y, prog, {di, "products"});
    Tensor sums = popops::reduce(graph, products, poplar::FLOAT, {1}, popops::Operation::ADD, prog,
                                 {di, "sum"});
    if (act.elementType() != poplar::FLOAT)
        sums = popops::cast(graph, sums, act.elementType(), prog, {di, "cast"});
    const Tensor dx = popops::map(graph, pe::_1 * (pe::_2 - pe::_3),
                                  {y, dy, sums.reshape({rows, 1})}, prog, {di, "inGradient"});
    di.addFlops(4 * act.numElements());
    return dx.reshape(act.shape());
}

} // namespace

namespace detail {
void registerNonLinearityVertices(poplar::Graph& graph) {
    registerType<float>(graph);
    registerType<poplar::half>(graph);
}
} // namespace detail

void nonLinearityInPlace(poplar::Graph& graph, NonLinearityType nl, Tensor t,
                         poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                         const poplar::OptionFlags&) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t), "nonLinearityInPlace");
    di.setValue("nonLinearityType", name(nl));
    checkType("nonLinearityInPlace", t);
    if (nl == NonLinearityType::SOFTMAX) {
        softmax(graph, t, t, prog, di);
        return;
    }
    const poplar::Type type = t.elementType();
    poplar::ComputeSet cs = graph.addComputeSet({di, std::string("nonLinearity") + name(nl)});
    const auto& target = graph.getTarget();
    pl::addElementWiseVertices(
        graph, cs, vertexName("popnn::NonLinearity1D", type, nl), t, {{"data", t}},
        [&](std::size_t n) { return pl::cycles::nonLinearityWorkerCycles(target, nl, type, n); });
    prog.add(poplar::program::Execute(cs, {di}));
    di.addFlops(t.numElements() * (nl == NonLinearityType::GELU ? 8 : 1));
}

Tensor nonLinearity(poplar::Graph& graph, NonLinearityType nl, Tensor t,
                    poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                    const poplar::OptionFlags& options) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, options), "nonLinearity");
    di.setValue("nonLinearityType", name(nl));
    checkType("nonLinearity", t);
    Tensor out = pl::createOutput(graph, t.elementType(), t.shape(), t, {di, "out"});
    prog.add(poplar::program::Copy(t, out, false, {di, "copy"}));
    nonLinearityInPlace(graph, nl, out, prog, {di}, options);
    di.addOutput(out);
    return out;
}

Tensor nonLinearityInputGradient(poplar::Graph& graph, NonLinearityType nl, Tensor act,
                                 Tensor outGradient, poplar::program::Sequence& prog,
                                 const poplar::DebugContext& debugContext,
                                 const poplar::OptionFlags&) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(act, outGradient), "nonLinearityInputGradient");
    di.setValue("nonLinearityType", name(nl));
    checkType("nonLinearityInputGradient", act);
    if (act.shape() != outGradient.shape() || act.elementType() != outGradient.elementType())
        throw poputil::poplibs_error(
            "popnn::nonLinearityInputGradient: activations '" + act.getName() + "' " +
            act.shapeToString() + " and gradient '" + outGradient.getName() + "' " +
            outGradient.shapeToString() + " must have the same shape and type");
    if (nl == NonLinearityType::SOFTMAX)
        return softmaxInputGradient(graph, act, outGradient, prog, di);
    const poplar::Type type = act.elementType();
    Tensor inGrad = pl::createOutput(graph, type, act.shape(), outGradient, {di, "inGradient"});
    poplar::ComputeSet cs = graph.addComputeSet({di, std::string("nonLinearityGrad") + name(nl)});
    const auto& target = graph.getTarget();
    const bool gelu = nl == NonLinearityType::GELU;
    pl::addElementWiseVertices(
        graph, cs, vertexName("popnn::NonLinearityGrad1D", type, nl), inGrad,
        {{"outGrad", outGradient}, {"out", act}, {"inGrad", inGrad}},
        [&](std::size_t n) { return pl::cycles::nonLinearityGradWorkerCycles(target, type, n); });
    prog.add(poplar::program::Execute(cs, {di}));
    di.addFlops(act.numElements() * (gelu ? 14 : 2));
    di.addOutput(inGrad);
    return inGrad;
}

} // namespace popnn
