// popfloat's vertices: quantising to a gfloat format, in place or not, and packing quantised
// values into CHAR or SHORT bits and back. Values are computed in double from the element type.

#include "common/CycleEstimates.hpp"
#include "popfloat/GfloatFormat.hpp"
#include "popfloat/PopfloatVertices.hpp"
#include "tilescope/sim/BuiltinVertex.hpp"

#include <cstring>
#include <popfloat/experimental/codelets.hpp>
#include <poputil/VertexTemplates.hpp>

namespace tilescope::popfloat {

using ::popfloat::experimental::RoundType;
using tilescope::sim::abi::describeField;
using tilescope::sim::abi::FieldVisitor;

namespace {

/// The format fields shared by every popfloat vertex.
struct FormatFields {
    unsigned mantissaBits = 0;
    unsigned exponentBits = 0;
    int bias = 0;
    bool denorms = false;
    bool infsAndNans = false;

    GfloatSpec spec() const {
        GfloatSpec s;
        s.mantissaBits = mantissaBits;
        s.exponentBits = exponentBits;
        s.bias = bias;
        s.denorms = denorms;
        s.infsAndNans = infsAndNans;
        return s;
    }
    void describe(FieldVisitor& f) {
        describeField(f, "mantissaBits", mantissaBits);
        describeField(f, "exponentBits", exponentBits);
        describeField(f, "bias", bias);
        describeField(f, "denorms", denorms);
        describeField(f, "infsAndNans", infsAndNans);
    }
};

template <typename T> double toDouble(T value) {
    return static_cast<double>(static_cast<float>(value));
}

template <typename T> T fromDouble(double value) {
    return static_cast<T>(static_cast<float>(value));
}

/// out[i] = quantise(in[i]).
template <typename In, typename Out> class CastToGfloat : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<In>> in;
    poplar::Output<poplar::Vector<Out>> out;
    FormatFields format;
    unsigned roundMode = 0;
    bool nanoo = false;
    bool compute() {
        const GfloatSpec spec = format.spec();
        const auto mode = static_cast<RoundType>(roundMode);
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = fromDouble<Out>(quantise(toDouble(in[i]), spec, mode, nanoo));
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<CastToGfloat*>(o);
        describeField(f, "in", v.in);
        describeField(f, "out", v.out);
        v.format.describe(f);
        describeField(f, "roundMode", v.roundMode);
        describeField(f, "nanoo", v.nanoo);
    }
};

/// inOut[i] = quantise(inOut[i]).
template <typename T> class CastToGfloatInPlace : public poplar::Vertex {
public:
    poplar::InOut<poplar::Vector<T>> inOut;
    FormatFields format;
    unsigned roundMode = 0;
    bool nanoo = false;
    bool compute() {
        const GfloatSpec spec = format.spec();
        const auto mode = static_cast<RoundType>(roundMode);
        for (std::size_t i = 0; i < inOut.size(); ++i)
            inOut[i] = fromDouble<T>(quantise(toDouble(inOut[i]), spec, mode, nanoo));
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<CastToGfloatInPlace*>(o);
        describeField(f, "inOut", v.inOut);
        v.format.describe(f);
        describeField(f, "roundMode", v.roundMode);
        describeField(f, "nanoo", v.nanoo);
    }
};

/// The format's bits, left-aligned in the container (sign in its top bit).
template <typename In, typename Out> class PackGfloat : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<In>> in;
    poplar::Output<poplar::Vector<Out>> out;
    FormatFields format;
    bool compute() {
        const GfloatSpec spec = format.spec();
        const unsigned shift = 8 * sizeof(Out) - spec.bits();
        for (std::size_t i = 0; i < out.size(); ++i) {
            const auto bits = pack(toDouble(in[i]), spec) << shift;
            using Unsigned = std::make_unsigned_t<Out>;
            const auto narrow = static_cast<Unsigned>(bits);
            Out value;
            std::memcpy(&value, &narrow, sizeof value);
            out[i] = value;
        }
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<PackGfloat*>(o);
        describeField(f, "in", v.in);
        describeField(f, "out", v.out);
        v.format.describe(f);
    }
};

/// The inverse of PackGfloat.
template <typename In, typename Out> class UnpackGfloat : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<In>> in;
    poplar::Output<poplar::Vector<Out>> out;
    FormatFields format;
    bool compute() {
        const GfloatSpec spec = format.spec();
        const unsigned shift = 8 * sizeof(In) - spec.bits();
        for (std::size_t i = 0; i < out.size(); ++i) {
            using Unsigned = std::make_unsigned_t<In>;
            Unsigned narrow;
            const In value = in[i];
            std::memcpy(&narrow, &value, sizeof narrow);
            out[i] = fromDouble<Out>(unpack(static_cast<std::uint32_t>(narrow) >> shift, spec));
        }
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<UnpackGfloat*>(o);
        describeField(f, "in", v.in);
        describeField(f, "out", v.out);
        v.format.describe(f);
    }
};

template <typename T> poplar::Type typeOf() {
    return poplar::equivalent_device_type<T>().value;
}

template <template <typename, typename> class V, typename In, typename Out>
void registerPair(poplar::Graph& graph, const std::string& name) {
    tilescope::sim::registerBuiltinVertex<V<In, Out>>(
        graph, poputil::templateVertex(name, typeOf<In>(), typeOf<Out>()), &V<In, Out>::visit);
}

const char* const kCastToGfloat = "popfloat::experimental::CastToGfloat";
const char* const kCastToGfloatInPlace = "popfloat::experimental::CastToGfloatInPlace";
const char* const kPackGfloat = "popfloat::experimental::PackGfloat";
const char* const kUnpackGfloat = "popfloat::experimental::UnpackGfloat";

} // namespace

std::string castToGfloatVertex(const poplar::Type& in, const poplar::Type& out) {
    return poputil::templateVertex(kCastToGfloat, in, out);
}
std::string castToGfloatInPlaceVertex(const poplar::Type& type) {
    return poputil::templateVertex(kCastToGfloatInPlace, type);
}
std::string packGfloatVertex(const poplar::Type& in, const poplar::Type& out) {
    return poputil::templateVertex(kPackGfloat, in, out);
}
std::string unpackGfloatVertex(const poplar::Type& in, const poplar::Type& out) {
    return poputil::templateVertex(kUnpackGfloat, in, out);
}

void setFormatFields(poplar::Graph& graph, poplar::VertexRef v, const GfloatSpec& spec) {
    graph.setInitialValue(v["mantissaBits"], spec.mantissaBits);
    graph.setInitialValue(v["exponentBits"], spec.exponentBits);
    graph.setInitialValue(v["bias"], spec.bias);
    graph.setInitialValue(v["denorms"], spec.denorms);
    graph.setInitialValue(v["infsAndNans"], spec.infsAndNans);
}

} // namespace tilescope::popfloat

namespace popfloat::experimental {

void addCodelets(poplar::Graph& graph) {
    namespace tp = tilescope::popfloat;
    using poplar::half;
    tp::registerPair<tp::CastToGfloat, float, float>(graph, tp::kCastToGfloat);
    tp::registerPair<tp::CastToGfloat, float, half>(graph, tp::kCastToGfloat);
    tp::registerPair<tp::CastToGfloat, half, float>(graph, tp::kCastToGfloat);
    tp::registerPair<tp::CastToGfloat, half, half>(graph, tp::kCastToGfloat);
    tilescope::sim::registerBuiltinVertex<tp::CastToGfloatInPlace<float>>(
        graph, tp::castToGfloatInPlaceVertex(poplar::FLOAT),
        &tp::CastToGfloatInPlace<float>::visit);
    tilescope::sim::registerBuiltinVertex<tp::CastToGfloatInPlace<half>>(
        graph, tp::castToGfloatInPlaceVertex(poplar::HALF), &tp::CastToGfloatInPlace<half>::visit);
    tp::registerPair<tp::PackGfloat, float, char>(graph, tp::kPackGfloat);
    tp::registerPair<tp::PackGfloat, float, short>(graph, tp::kPackGfloat);
    tp::registerPair<tp::PackGfloat, half, char>(graph, tp::kPackGfloat);
    tp::registerPair<tp::PackGfloat, half, short>(graph, tp::kPackGfloat);
    tp::registerPair<tp::UnpackGfloat, char, float>(graph, tp::kUnpackGfloat);
    tp::registerPair<tp::UnpackGfloat, short, float>(graph, tp::kUnpackGfloat);
    tp::registerPair<tp::UnpackGfloat, char, half>(graph, tp::kUnpackGfloat);
    tp::registerPair<tp::UnpackGfloat, short, half>(graph, tp::kUnpackGfloat);
}

} // namespace popfloat::experimental
