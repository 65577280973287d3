// The vertices of popops::multiSlice and the multiUpdate family. Each sees one block of the
// sliced tensor: `numBaseElements` rows (entries baseOffset...) of `regionSize` columns, and
// checks every index against its rows at run time, as PopLibs' MultiSlice/MultiUpdate vertices do.

#include "popops/ElementWiseVertices.hpp"
#include "popops/PopopsCodelets.hpp"
#include "tilescope/sim/BuiltinVertex.hpp"

#include <algorithm>
#include <poputil/VertexTemplates.hpp>

namespace popops {

namespace pl = tilescope::poplibs;
using tilescope::sim::abi::describeField;
using tilescope::sim::abi::FieldVisitor;

namespace {

/// subT[i] = baseT[offsets[i] - baseOffset] for the indices whose row this block holds; the
/// others get zeros (so the slices of several blocks of rows can be combined).
template <typename T> class MultiSlice : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<unsigned>> offsets;
    poplar::Input<poplar::Vector<T>> baseT;
    poplar::Output<poplar::Vector<T>> subT;
    unsigned baseOffset = 0;
    unsigned numBaseElements = 0;
    unsigned regionSize = 0;
    bool compute() {
        for (std::size_t i = 0; i < offsets.size(); ++i) {
            const unsigned row = offsets[i] - baseOffset; // wraps for indices below the block
            const std::size_t to = i * regionSize;
            if (offsets[i] >= baseOffset && row < numBaseElements) {
                const std::size_t from = std::size_t(row) * regionSize;
                for (unsigned e = 0; e < regionSize; ++e)
                    subT[to + e] = baseT[from + e];
            } else {
                for (unsigned e = 0; e < regionSize; ++e)
                    subT[to + e] = T(0);
            }
        }
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<MultiSlice*>(o);
        describeField(f, "offsets", v.offsets);
        describeField(f, "baseT", v.baseT);
        describeField(f, "subT", v.subT);
        describeField(f, "baseOffset", v.baseOffset);
        describeField(f, "numBaseElements", v.numBaseElements);
        describeField(f, "regionSize", v.regionSize);
    }
};

/// The second stage of a multiSlice whose entries are split into parts: subT[i] is the partial
/// slice of the part holding index offsets[i] (partials[part][i]), zeros for an index past the end.
template <typename T> class MultiSlicePartials : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<unsigned>> offsets;
    poplar::Input<poplar::Vector<T>> partials; // [numParts][offsets.size()][regionSize]
    poplar::Output<poplar::Vector<T>> subT;
    unsigned entriesPerPart = 1;
    unsigned numParts = 1;
    unsigned regionSize = 0;
    bool compute() {
        const std::size_t n = offsets.size();
        for (std::size_t i = 0; i < n; ++i) {
            const unsigned part = std::min(offsets[i] / entriesPerPart, numParts - 1);
            const std::size_t from = (part * n + i) * regionSize, to = i * regionSize;
            for (unsigned e = 0; e < regionSize; ++e)
                subT[to + e] = partials[from + e];
        }
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<MultiSlicePartials*>(o);
        describeField(f, "offsets", v.offsets);
        describeField(f, "partials", v.partials);
        describeField(f, "subT", v.subT);
        describeField(f, "entriesPerPart", v.entriesPerPart);
        describeField(f, "numParts", v.numParts);
        describeField(f, "regionSize", v.regionSize);
    }
};

/// The update kinds: plain (multiUpdate), scaled add (multiUpdateAdd), max (multiUpdateMax).
enum class UpdateKind { Write, Add, Max };

/// baseT[offsets[i] - baseOffset] (op)= subT[i] for the indices in this block's rows, in index
/// order (so repeated indices accumulate, and for Write the last one wins).
template <typename T, typename S, UpdateKind K> class MultiUpdate : public poplar::Vertex {
public:
    poplar::Input<poplar::Vector<unsigned>> offsets;
    poplar::Input<poplar::Vector<T>> subT;
    poplar::InOut<poplar::Vector<T>> baseT;
    poplar::Input<S> scale; // read by the Add kind only
    unsigned baseOffset = 0;
    unsigned numBaseElements = 0;
    unsigned regionSize = 0;
    bool compute() {
        using C = pl::popops_vertices::ComputeType<T>;
        for (std::size_t i = 0; i < offsets.size(); ++i) {
            const unsigned row = offsets[i] - baseOffset;
            if (offsets[i] < baseOffset || row >= numBaseElements)
                continue;
            const std::size_t to = std::size_t(row) * regionSize, from = i * regionSize;
            for (unsigned e = 0; e < regionSize; ++e) {
                if constexpr (K == UpdateKind::Write) {
                    baseT[to + e] = subT[from + e];
                } else if constexpr (K == UpdateKind::Add) {
                    const C s = static_cast<C>(static_cast<float>(scale));
                    baseT[to + e] = static_cast<T>(static_cast<C>(baseT[to + e]) +
                                                   s * static_cast<C>(subT[from + e]));
                } else {
                    const C a = static_cast<C>(baseT[to + e]), b = static_cast<C>(subT[from + e]);
                    baseT[to + e] = static_cast<T>(std::max(a, b));
                }
            }
        }
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<MultiUpdate*>(o);
        describeField(f, "offsets", v.offsets);
        describeField(f, "subT", v.subT);
        describeField(f, "baseT", v.baseT);
        if (K == UpdateKind::Add)
            describeField(f, "scale", v.scale);
        describeField(f, "baseOffset", v.baseOffset);
        describeField(f, "numBaseElements", v.numBaseElements);
        describeField(f, "regionSize", v.regionSize);
    }
};

template <typename T, typename S> void registerFor(poplar::Graph& graph) {
    using tilescope::sim::registerBuiltinVertex;
    const poplar::Type type = poplar::equivalent_device_type<T>().value;
    const poplar::Type scaleType = poplar::equivalent_device_type<S>().value;
    registerBuiltinVertex<MultiSlice<T>>(graph, poputil::templateVertex("popops::MultiSlice", type),
                                         &MultiSlice<T>::visit);
    registerBuiltinVertex<MultiSlicePartials<T>>(
        graph, poputil::templateVertex("popops::MultiSlicePartials", type),
        &MultiSlicePartials<T>::visit);
    using Write = MultiUpdate<T, S, UpdateKind::Write>;
    using Add = MultiUpdate<T, S, UpdateKind::Add>;
    using Max = MultiUpdate<T, S, UpdateKind::Max>;
    registerBuiltinVertex<Write>(graph, poputil::templateVertex("popops::MultiUpdate", type),
                                 &Write::visit);
    registerBuiltinVertex<Add>(
        graph, poputil::templateVertex("popops::ScaledMultiUpdateOp", type, scaleType, "ADD"),
        &Add::visit);
    registerBuiltinVertex<Max>(graph, poputil::templateVertex("popops::MultiUpdateOp", type, "MAX"),
                               &Max::visit);
}

} // namespace

namespace detail {
void registerMultiSliceVertices(poplar::Graph& graph) {
    registerFor<float, float>(graph);
    registerFor<poplar::half, float>(graph);
    registerFor<int, int>(graph);
    registerFor<unsigned, unsigned>(graph);
}
} // namespace detail

} // namespace popops
