// popops::dynamicSlice, popops::dynamicUpdate and their vertices. A multi-dimensional slice is a
// chain of one-dimensional ones (as in PopLibs); each one-dimensional step views its tensor as
// [N rows, columns] around the sliced dimension and puts one vertex on each tile holding columns
// of the first row, all N rows of which it sees, so the vertex can pick the rows at run time.

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

/// Adds to `cs` the vertices of one one-dimensional step between `base` and `sub`, reading the
/// offset from the scalar `offset`. `update` selects the direction. As PopLibs' generateVertices
/// (lib/popops/DynamicSlice.cpp, SDK 2.x): the vertices follow the tile mapping of the base's
/// first row along `dim` (the row's columns, the other dimensions flattened), one vertex per
/// tile over all the columns that tile holds, so a tensor laid out for slicing needs no exchange.
/// The grain is the base's layout, not the vector width: HALF and FLOAT land alike.
void addSliceVertices(poplar::Graph& graph, poplar::ComputeSet cs, const Tensor& base,
                      const Tensor& sub, const Tensor& offset, std::size_t dim, bool update) {
    const std::size_t rows = base.dim(static_cast<unsigned>(dim));
    const std::size_t subRows = sub.dim(static_cast<unsigned>(dim));
    if (rows == 0 || base.numElements() == 0)
        return;
    const std::size_t columns = base.numElements() / rows;
    const Tensor b2 = base.dimRoll(static_cast<unsigned>(dim)).reshape({rows, columns});
    const Tensor s2 = sub.dimRoll(static_cast<unsigned>(dim)).reshape({subRows, columns});
    const auto& target = graph.getTarget();
    const auto type = base.elementType();
    const std::string vertexType = poputil::templateVertex(
        update ? "popops::DynamicUpdateSlice" : "popops::DynamicSlice", type);
    const auto mapping = graph.getTileMapping(b2[0]);
    for (unsigned tile = 0; tile < mapping.size(); ++tile) {
        if (mapping[tile].empty())
            continue;
        std::vector<Tensor> baseCols, subCols;
        std::size_t regionSize = 0;
        for (const auto& interval : mapping[tile]) {
            baseCols.push_back(b2.slice(interval.begin(), interval.end(), 1));
            subCols.push_back(s2.slice(interval.begin(), interval.end(), 1));
            regionSize += interval.size();
        }
        // Rows of this tile's columns: numBaseElements (numSubElements) rows of regionSize.
        const Tensor baseBlock = poplar::concat(baseCols, 1);
        const Tensor subBlock = poplar::concat(subCols, 1);
        poplar::VertexRef v = graph.addVertex(cs, vertexType);
        graph.connect(v["offset"], offset);
        graph.connect(v["baseT"], baseBlock.flatten());
        graph.connect(v["subT"], subBlock.flatten());
        graph.setInitialValue(v["numBaseElements"], static_cast<unsigned>(rows));
        graph.setInitialValue(v["numSubElements"], static_cast<unsigned>(subRows));
        graph.setInitialValue(v["regionSize"], static_cast<unsigned>(regionSize));
        graph.setTileMapping(v, tile);
        graph.setPerfEstimate(v, pl::cycles::dynamicSlice(target, type, 1, subRows, regionSize));
    }
}

/// Maps `t` as PopLibs' createSliceableTensorGivenOrder does: the elements of the unsliced
/// dimensions (flattened, in order) cut into blocks of max(ceil(U / tiles), minGrainSize), block k
/// with every row of the sliced dimensions on tile k, from tile 0. No vector-width grain: a
/// HALF and a FLOAT tensor of one shape get the same tiles.
void mapSliceable(poplar::Graph& graph, const Tensor& t, const std::vector<std::size_t>& dims,
                  std::size_t minGrainSize) {
    if (t.numElements() == 0)
        return;
    std::vector<bool> sliced(t.rank(), false);
    std::vector<unsigned> order;
    for (auto d : dims) {
        sliced[d] = true;
        order.push_back(static_cast<unsigned>(d));
    }
    std::size_t slicedElems = 1;
    for (auto d : dims)
        slicedElems *= t.dim(static_cast<unsigned>(d));
    for (unsigned d = 0; d < t.rank(); ++d)
        if (!sliced[d])
            order.push_back(d);
    const std::size_t unsliced = t.numElements() / slicedElems;
    const Tensor t2 = t.dimShuffle(order).reshape({slicedElems, unsliced});
    const std::size_t tiles = graph.getTarget().getNumTiles();
    const std::size_t perTile = std::max<std::size_t>(std::max<std::size_t>(1, minGrainSize),
                                                      (unsliced + tiles - 1) / tiles);
    unsigned tile = 0;
    for (std::size_t c = 0; c < unsliced; c += perTile)
        graph.setTileMapping(t2.slice(c, std::min(unsliced, c + perTile), 1), tile++);
}

/// One slice step: a new variable `size` long in `dim`, filled by one compute set.
Tensor sliceOne(poplar::Graph& graph, const Tensor& t, const Tensor& offset, std::size_t dim,
                std::size_t size, poplar::program::Sequence& prog,
                const poplar::DebugContext& debugContext) {
    // PopLibs clones the base's first `size` rows, so the result sits where the vertices run.
    Tensor out = graph.clone(t.slice(0, size, static_cast<unsigned>(dim)), {debugContext, "slice"});
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
    mapSliceable(graph, t, dims, minGrainSize);
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
    // PopLibs' createSliceTensor: the index dimension and the sliced ones are "sliced", the rest
    // spread over the tiles as a sliceable tensor with no minimum grain.
    std::vector<std::size_t> outDims{0};
    for (auto d : dims)
        outDims.push_back(d + 1);
    mapSliceable(graph, out, outDims, 0);
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
