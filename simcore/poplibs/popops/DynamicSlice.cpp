// popops::dynamicSlice, popops::dynamicUpdate and their vertices. A multi-dimensional slice is a
// chain of one-dimensional ones (as in PopLibs); each one-dimensional step views its tensor as
// [outer, N, inner] around the sliced dimension and gives each vertex a block of outer indices
// and inner columns, all N rows of which it sees, so the vertex can pick the rows at run time.

#include "popops/DynamicSlice.hpp"

#include "common/CycleEstimates.hpp"
#include "common/ElementWiseBuilder.hpp"
#include "popops/PopopsCodelets.hpp"
#include "tilescope/sim/BuiltinVertex.hpp"

#include <algorithm>
#include <poplar/exceptions.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

namespace pl = tilescope::poplibs;
using poplar::Tensor;
using tilescope::sim::abi::describeField;
using tilescope::sim::abi::FieldVisitor;

namespace {

/// The first row a slice starts at: PopLibs' vertices treat an offset past the end as 0.
inline unsigned firstRow(unsigned offset, unsigned numBaseElements) {
    return offset >= numBaseElements ? 0 : offset;
}

/// Copies rows [offset, offset + numSubElements) (wrapping at numBaseElements) of each region of
/// `baseT` to `subT`. Region r of baseT is numBaseElements rows of regionSize elements, region r
/// of subT numSubElements such rows.
template <typename T> class DynamicSlice : public poplar::Vertex {
public:
    poplar::Input<unsigned> offset;
    poplar::Input<poplar::Vector<T>> baseT;
    poplar::Output<poplar::Vector<T>> subT;
    unsigned numBaseElements = 0;
    unsigned numSubElements = 0;
    unsigned regionSize = 0;
    bool compute() {
        const std::size_t regions = subT.size() / (std::size_t(numSubElements) * regionSize);
        for (std::size_t r = 0; r < regions; ++r) {
            unsigned row = firstRow(offset, numBaseElements);
            for (unsigned s = 0; s < numSubElements; ++s) {
                const std::size_t from = (r * numBaseElements + row) * regionSize;
                const std::size_t to = (r * numSubElements + s) * regionSize;
                for (unsigned e = 0; e < regionSize; ++e)
                    subT[to + e] = baseT[from + e];
                row = row + 1 == numBaseElements ? 0 : row + 1;
            }
        }
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<DynamicSlice*>(o);
        describeField(f, "offset", v.offset);
        describeField(f, "baseT", v.baseT);
        describeField(f, "subT", v.subT);
        describeField(f, "numBaseElements", v.numBaseElements);
        describeField(f, "numSubElements", v.numSubElements);
        describeField(f, "regionSize", v.regionSize);
    }
};

/// The inverse of DynamicSlice: writes each region of `subT` to its rows of `baseT`.
template <typename T> class DynamicUpdateSlice : public poplar::Vertex {
public:
    poplar::Input<unsigned> offset;
    poplar::InOut<poplar::Vector<T>> baseT;
    poplar::Input<poplar::Vector<T>> subT;
    unsigned numBaseElements = 0;
    unsigned numSubElements = 0;
    unsigned regionSize = 0;
    bool compute() {
        const std::size_t regions = subT.size() / (std::size_t(numSubElements) * regionSize);
        for (std::size_t r = 0; r < regions; ++r) {
            unsigned row = firstRow(offset, numBaseElements);
            for (unsigned s = 0; s < numSubElements; ++s) {
                const std::size_t to = (r * numBaseElements + row) * regionSize;
                const std::size_t from = (r * numSubElements + s) * regionSize;
                for (unsigned e = 0; e < regionSize; ++e)
                    baseT[to + e] = subT[from + e];
                row = row + 1 == numBaseElements ? 0 : row + 1;
            }
        }
        return true;
    }
    static void visit(void* o, FieldVisitor& f) {
        auto& v = *static_cast<DynamicUpdateSlice*>(o);
        describeField(f, "offset", v.offset);
        describeField(f, "baseT", v.baseT);
        describeField(f, "subT", v.subT);
        describeField(f, "numBaseElements", v.numBaseElements);
        describeField(f, "numSubElements", v.numSubElements);
        describeField(f, "regionSize", v.regionSize);
    }
};

template <typename T> void registerFor(poplar::Graph& graph) {
    const poplar::Type type = poplar::equivalent_device_type<T>().value;
    tilescope::sim::registerBuiltinVertex<DynamicSlice<T>>(
        graph, poputil::templateVertex("popops::DynamicSlice", type), &DynamicSlice<T>::visit);
    tilescope::sim::registerBuiltinVertex<DynamicUpdateSlice<T>>(
        graph, poputil::templateVertex("popops::DynamicUpdateSlice", type),
        &DynamicUpdateSlice<T>::visit);
}

std::string dimsString(const std::vector<std::size_t>& v) {
    return pl::shapeString(v);
}

void checkArguments(const std::string& api, const Tensor& t, const Tensor& offset,
                    const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes) {
    const auto type = t.elementType();
    if (type != poplar::FLOAT && type != poplar::HALF && type != poplar::INT &&
        type != poplar::UNSIGNED_INT)
        throw poputil::poplibs_error("popops::" + api + ": tensor '" + t.getName() + "' has type " +
                                     type.toString() +
                                     "; FLOAT, HALF, INT and UNSIGNED_INT are supported");
    if (offset.elementType() != poplar::UNSIGNED_INT)
        throw poputil::poplibs_error("popops::" + api + ": offset tensor '" + offset.getName() +
                                     "' has type " + offset.elementType().toString() +
                                     "; it must be UNSIGNED_INT");
    if (dims.size() != sizes.size() || offset.numElements() != dims.size() || dims.empty())
        throw poputil::poplibs_error("popops::" + api + ": dims " + dimsString(dims) + ", sizes " +
                                     dimsString(sizes) + " and offset '" + offset.getName() +
                                     "' of shape " + offset.shapeToString() +
                                     " must have the same non-zero number of entries");
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] >= t.rank())
            throw poputil::poplibs_error("popops::" + api + ": dimension " +
                                         std::to_string(dims[i]) + " is out of range for tensor '" +
                                         t.getName() + "' of shape " + t.shapeToString());
        if (std::count(dims.begin(), dims.end(), dims[i]) != 1)
            throw poputil::poplibs_error("popops::" + api + ": dimension " +
                                         std::to_string(dims[i]) + " is given more than once");
        if (sizes[i] == 0 || sizes[i] > t.dim(static_cast<unsigned>(dims[i])))
            throw poputil::poplibs_error(
                "popops::" + api + ": slice size " + std::to_string(sizes[i]) + " of dimension " +
                std::to_string(dims[i]) + " must be in [1, " +
                std::to_string(t.dim(static_cast<unsigned>(dims[i]))) + "] for tensor '" +
                t.getName() + "' of shape " + t.shapeToString());
    }
}

/// The shape of a slice of `shape` `size` long in dimension `dim`.
std::vector<std::size_t> slicedShape(std::vector<std::size_t> shape, std::size_t dim,
                                     std::size_t size) {
    shape[dim] = size;
    return shape;
}

/// `t` viewed as [outer, N, inner] around dimension `dim`.
Tensor aroundDim(const Tensor& t, std::size_t dim) {
    const auto shape = t.shape();
    std::size_t outer = 1, inner = 1;
    for (std::size_t d = 0; d < dim; ++d)
        outer *= shape[d];
    for (std::size_t d = dim + 1; d < shape.size(); ++d)
        inner *= shape[d];
    return t.reshape({outer, shape[dim], inner});
}

/// Adds to `cs` the vertices of one one-dimensional step between `base` and `sub` (both viewed
/// around `dim`), reading the offset from the scalar `offset`. `update` selects the direction.
/// For a slice (`mapSub`) each vertex's block of `sub` is mapped to the vertex's tile.
void addSliceVertices(poplar::Graph& graph, poplar::ComputeSet cs, const Tensor& base,
                      const Tensor& sub, const Tensor& offset, std::size_t dim, bool update) {
    const Tensor b3 = aroundDim(base, dim), s3 = aroundDim(sub, dim);
    const std::size_t outer = b3.dim(0), rows = b3.dim(1), subRows = s3.dim(1), inner = b3.dim(2);
    if (outer * inner == 0)
        return;
    const auto& target = graph.getTarget();
    const auto type = base.elementType();
    const std::size_t tiles = target.getNumTiles();
    const std::size_t grain = target.getVectorWidth(type);
    // One block of outer indices x inner columns per tile, columns in whole vectors.
    const std::size_t perTile = std::max(grain, (outer * inner + tiles - 1) / tiles);
    std::size_t blockInner = inner, blockOuter = 1;
    if (inner >= perTile)
        blockInner = std::min(inner, (perTile + grain - 1) / grain * grain);
    else
        blockOuter = (perTile + inner - 1) / inner;
    const std::string vertexType = poputil::templateVertex(
        update ? "popops::DynamicUpdateSlice" : "popops::DynamicSlice", type);
    unsigned tile = 0;
    for (std::size_t o = 0; o < outer; o += blockOuter) {
        const std::size_t oEnd = std::min(outer, o + blockOuter);
        for (std::size_t c = 0; c < inner; c += blockInner) {
            const std::size_t cEnd = std::min(inner, c + blockInner);
            const Tensor baseBlock = b3.slice(o, oEnd, 0).slice(c, cEnd, 2);
            const Tensor subBlock = s3.slice(o, oEnd, 0).slice(c, cEnd, 2);
            if (!update)
                graph.setTileMapping(subBlock, tile);
            poplar::VertexRef v = graph.addVertex(cs, vertexType);
            graph.connect(v["offset"], offset);
            graph.connect(v["baseT"], baseBlock.flatten());
            graph.connect(v["subT"], subBlock.flatten());
            graph.setInitialValue(v["numBaseElements"], static_cast<unsigned>(rows));
            graph.setInitialValue(v["numSubElements"], static_cast<unsigned>(subRows));
            graph.setInitialValue(v["regionSize"], static_cast<unsigned>(cEnd - c));
            graph.setTileMapping(v, tile);
            graph.setPerfEstimate(
                v, pl::cycles::dynamicSlice(target, type, oEnd - o, subRows, cEnd - c));
            tile = static_cast<unsigned>((tile + 1) % tiles);
        }
    }
}

/// One slice step: a new variable `size` long in `dim`, filled by one compute set.
Tensor sliceOne(poplar::Graph& graph, const Tensor& t, const Tensor& offset, std::size_t dim,
                std::size_t size, poplar::program::Sequence& prog,
                const poplar::DebugContext& debugContext) {
    Tensor out = graph.addVariable(t.elementType(), slicedShape(t.shape(), dim, size),
                                   {debugContext, "slice"});
    if (out.numElements() == 0)
        return out;
    poplar::ComputeSet cs =
        graph.addComputeSet({debugContext, "dynamicSlice/dim" + std::to_string(dim)});
    addSliceVertices(graph, cs, t, out, offset, dim, false);
    prog.add(poplar::program::Execute(cs, {debugContext}));
    return out;
}

void updateOne(poplar::Graph& graph, const Tensor& t, const Tensor& s, const Tensor& offset,
               std::size_t dim, poplar::program::Sequence& prog,
               const poplar::DebugContext& debugContext) {
    if (s.numElements() == 0)
        return;
    poplar::ComputeSet cs =
        graph.addComputeSet({debugContext, "dynamicUpdate/dim" + std::to_string(dim)});
    addSliceVertices(graph, cs, t, s, offset, dim, true);
    prog.add(poplar::program::Execute(cs, {debugContext}));
}

/// update(t, s) over dims[i..]: the first dimension's slice of t is taken, updated over the
/// remaining dimensions, and written back (PopLibs' decomposition).
void updateFrom(poplar::Graph& graph, const Tensor& t, const Tensor& s, const Tensor& offset,
                const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                std::size_t i, poplar::program::Sequence& prog,
                const poplar::DebugContext& debugContext) {
    const Tensor o = offset[i];
    if (i + 1 == dims.size()) {
        updateOne(graph, t, s, o, dims[i], prog, debugContext);
        return;
    }
    const Tensor part = sliceOne(graph, t, o, dims[i], sizes[i], prog, debugContext);
    updateFrom(graph, part, s, offset, dims, sizes, i + 1, prog, debugContext);
    updateOne(graph, t, part, o, dims[i], prog, debugContext);
}

std::vector<std::size_t> sliceShape(std::vector<std::size_t> shape,
                                    const std::vector<std::size_t>& dims,
                                    const std::vector<std::size_t>& sizes) {
    for (std::size_t i = 0; i < dims.size(); ++i)
        shape[dims[i]] = sizes[i];
    return shape;
}

} // namespace

namespace detail {
void registerDynamicSliceVertices(poplar::Graph& graph) {
    registerFor<float>(graph);
    registerFor<poplar::half>(graph);
    registerFor<int>(graph);
    registerFor<unsigned>(graph);
}
} // namespace detail

Tensor createSliceableTensor(poplar::Graph& graph, const poplar::Type& type,
                             const std::vector<std::size_t>& shape,
                             const std::vector<std::size_t>& dims,
                             const std::vector<std::size_t>& sizes, std::size_t minGrainSize,
                             const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(type, shape, dims, sizes, minGrainSize),
                              "createSliceableTensor");
    if (dims.size() != sizes.size())
        throw poputil::poplibs_error("popops::createSliceableTensor: dims " + dimsString(dims) +
                                     " and sizes " + dimsString(sizes) +
                                     " must have the same number of entries");
    for (std::size_t i = 0; i < dims.size(); ++i)
        if (dims[i] >= shape.size() || sizes[i] > shape[dims[i]])
            throw poputil::poplibs_error("popops::createSliceableTensor: dimension " +
                                         std::to_string(dims[i]) + " with slice size " +
                                         std::to_string(sizes[i]) + " does not fit shape " +
                                         pl::shapeString(shape));
    Tensor t = graph.addVariable(type, shape, {di});
    const auto grain = std::max<std::size_t>(minGrainSize, graph.getTarget().getVectorWidth(type));
    poputil::mapTensorLinearly(graph, t, 0, static_cast<unsigned>(grain));
    return t;
}

Tensor createSliceTensor(poplar::Graph& graph, const Tensor& t,
                         const std::vector<std::size_t>& dims,
                         const std::vector<std::size_t>& sizes, std::size_t numIndices,
                         const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, dims, sizes, numIndices),
                              "createSliceTensor");
    if (dims.size() != sizes.size())
        throw poputil::poplibs_error("popops::createSliceTensor: dims " + dimsString(dims) +
                                     " and sizes " + dimsString(sizes) +
                                     " must have the same number of entries");
    for (std::size_t i = 0; i < dims.size(); ++i)
        if (dims[i] >= t.rank() || sizes[i] > t.dim(static_cast<unsigned>(dims[i])))
            throw poputil::poplibs_error("popops::createSliceTensor: dimension " +
                                         std::to_string(dims[i]) + " with slice size " +
                                         std::to_string(sizes[i]) + " does not fit tensor '" +
                                         t.getName() + "' of shape " + t.shapeToString());
    auto shape = sliceShape(t.shape(), dims, sizes);
    shape.insert(shape.begin(), numIndices);
    Tensor out = graph.addVariable(t.elementType(), shape, {di});
    poputil::mapTensorLinearly(graph, out);
    di.addOutput(out);
    return out;
}

Tensor dynamicSlice(poplar::Graph& graph, const Tensor& t, const Tensor& offset,
                    const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                    poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                    const poplar::OptionFlags&, PlanningCache*) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, offset, dims, sizes), "dynamicSlice");
    checkArguments("dynamicSlice", t, offset, dims, sizes);
    const Tensor offsets = offset.flatten();
    Tensor cur = t;
    for (std::size_t i = 0; i < dims.size(); ++i)
        cur = sliceOne(graph, cur, offsets[i], dims[i], sizes[i], prog, {di});
    di.addOutput(cur);
    return cur;
}

void dynamicUpdate(poplar::Graph& graph, const Tensor& t, const Tensor& s, const Tensor& offset,
                   const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                   poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                   const poplar::OptionFlags&, PlanningCache*) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, s, offset, dims, sizes), "dynamicUpdate");
    checkArguments("dynamicUpdate", t, offset, dims, sizes);
    if (s.elementType() != t.elementType() || s.shape() != sliceShape(t.shape(), dims, sizes))
        throw poputil::poplibs_error("popops::dynamicUpdate: update '" + s.getName() +
                                     "' of type " + s.elementType().toString() + " and shape " +
                                     s.shapeToString() + " must have type " +
                                     t.elementType().toString() + " and shape " +
                                     pl::shapeString(sliceShape(t.shape(), dims, sizes)));
    updateFrom(graph, t, s, offset.flatten(), dims, sizes, 0, prog, {di});
}

} // namespace popops
