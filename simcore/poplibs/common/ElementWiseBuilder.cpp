#include "common/ElementWiseBuilder.hpp"

#include "poputil/TileMapping.hpp"
#include "tilescope/sim/OperationRegistry.hpp"

#include <algorithm>
#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>
#include <tuple>

namespace tilescope::poplibs {

namespace {

/// The chunks of a tile's intervals: consecutive runs of at most `chunk` elements.
std::vector<std::vector<poplar::Interval>> splitIntervals(const std::vector<poplar::Interval>& in,
                                                          std::size_t chunk) {
    std::vector<std::vector<poplar::Interval>> out(1);
    std::size_t filled = 0;
    for (const auto& i : in) {
        std::size_t begin = i.begin();
        while (begin < i.end()) {
            if (filled == chunk) {
                out.emplace_back();
                filled = 0;
            }
            const std::size_t end = std::min(i.end(), begin + (chunk - filled));
            out.back().emplace_back(begin, end);
            filled += end - begin;
            begin = end;
        }
    }
    return out;
}

/// The elements of `intervals` (in groups of `groupSize`) of the tensor `reader` reads. One reader
/// per tensor serves every vertex, so cutting a tensor with many ranges stays linear.
poplar::Tensor gather(tilescope::sim::views::FlatIntervalReader& reader,
                      const std::vector<poplar::Interval>& intervals, std::size_t groupSize) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> flat;
    flat.reserve(intervals.size());
    for (const auto& i : intervals)
        flat.emplace_back(i.begin() * groupSize, i.end() * groupSize);
    return poplar::Tensor(reader.gather(flat));
}

/// A piece of a tile's data: `size` elements that are both contiguous in memory (from
/// `address` in `variable`) and consecutive in the view's flat order (from `flat`).
struct MemoryPiece {
    std::uint32_t variable;
    std::uint64_t address, flat, size;
};

/// The pieces of a tile's flat `intervals` of the view `reader` reads, sorted by where they sit
/// in memory (poputil's getSortedContiguousRegions); `wasSorted` tells whether the flat order was
/// the memory order already.
std::vector<MemoryPiece> piecesInMemoryOrder(tilescope::sim::views::FlatIntervalReader& reader,
                                             const std::vector<poplar::Interval>& intervals,
                                             bool& wasSorted) {
    std::vector<MemoryPiece> pieces;
    wasSorted = true;
    for (const auto& i : intervals) {
        tilescope::sim::TensorView part;
        reader.appendTo(part, i.begin(), i.end());
        std::uint64_t flat = i.begin();
        for (const auto& r : part.ranges) {
            if (!pieces.empty() && std::tie(pieces.back().variable, pieces.back().address) >
                                       std::tie(r.variable, r.begin))
                wasSorted = false;
            pieces.push_back({r.variable, r.begin, flat, r.size()});
            flat += r.size();
        }
    }
    if (!wasSorted)
        std::stable_sort(
            pieces.begin(), pieces.end(), [](const MemoryPiece& a, const MemoryPiece& b) {
                return std::tie(a.variable, a.address) < std::tie(b.variable, b.address);
            });
    return pieces;
}

/// Appends a piece's flat interval to `out`, merged with the last one when they follow.
void appendFlat(std::vector<poplar::Interval>& out, const MemoryPiece& p) {
    if (!out.empty() && out.back().end() == p.flat)
        out.back() = poplar::Interval(out.back().begin(), p.flat + p.size);
    else
        out.emplace_back(p.flat, p.flat + p.size);
}

/// A tile's intervals of `mapped` reordered by where their elements sit in memory, as PopLibs
/// walks a tile's data: a view whose flat order is not its memory order (a product's result, its
/// rows grouped innermost, or a transposed view) then gives vertices a few contiguous regions,
/// not one per element. Views in memory order come back unchanged.
std::vector<poplar::Interval> inMemoryOrder(tilescope::sim::views::FlatIntervalReader& reader,
                                            const std::vector<poplar::Interval>& intervals) {
    bool wasSorted = true;
    const auto pieces = piecesInMemoryOrder(reader, intervals, wasSorted);
    if (wasSorted)
        return intervals;
    std::vector<poplar::Interval> out;
    out.reserve(pieces.size());
    for (const auto& p : pieces)
        appendFlat(out, p);
    return out;
}

} // namespace

void addElementWiseVertices(poplar::Graph& graph, poplar::ComputeSet cs,
                            const std::string& vertexType, const poplar::Tensor& mapped,
                            const std::vector<FieldTensor>& fields,
                            const std::function<std::uint64_t(std::size_t elements)>& cycles,
                            const std::function<void(poplar::VertexRef)>& configure,
                            const std::vector<ListFieldTensors>& listFields) {
    const auto& target = graph.getTarget();
    const std::size_t workers = target.getNumWorkerContexts();
    const std::size_t grain = target.getVectorWidth(mapped.elementType());
    std::vector<poplar::Tensor> flats;
    std::vector<std::size_t> groupSizes;
    const std::size_t n = mapped.numElements();
    for (const auto& [name, t] : fields) {
        if (n == 0 || t.numElements() % n != 0 || t.numElements() == 0)
            throw poputil::poplibs_error(
                vertexType + ": field '" + name + "' tensor '" + t.getName() + "' of shape " +
                t.shapeToString() + " does not cover the output shape " + mapped.shapeToString());
        flats.push_back(t.flatten());
        groupSizes.push_back(t.numElements() / n);
    }
    // List items are handled like fields of their own, connected as one list per vertex.
    std::vector<std::pair<std::size_t, std::size_t>> listRanges; // [first, end) in `flats`
    for (const auto& [name, tensors] : listFields) {
        const std::size_t first = flats.size();
        for (const auto& t : tensors) {
            if (t.numElements() != n)
                throw poputil::poplibs_error(vertexType + ": list field '" + name + "' tensor '" +
                                             t.getName() + "' of shape " + t.shapeToString() +
                                             " does not match the output shape " +
                                             mapped.shapeToString());
            flats.push_back(t.flatten());
            groupSizes.push_back(1);
        }
        listRanges.emplace_back(first, flats.size());
    }
    std::vector<tilescope::sim::views::FlatIntervalReader> readers;
    readers.reserve(flats.size());
    for (const auto& f : flats)
        readers.emplace_back(f.view());
    const auto mapping = graph.getTileMapping(mapped);
    const poplar::Tensor mappedFlat = mapped.flatten();
    tilescope::sim::views::FlatIntervalReader mappedReader(mappedFlat.view());
    for (unsigned tile = 0; tile < mapping.size(); ++tile) {
        std::size_t onTile = 0;
        for (const auto& i : mapping[tile])
            onTile += i.size();
        if (onTile == 0)
            continue;
        const std::size_t perWorker = (onTile + workers - 1) / workers;
        const std::size_t chunk = (perWorker + grain - 1) / grain * grain;
        for (const auto& intervals :
             splitIntervals(inMemoryOrder(mappedReader, mapping[tile]), chunk)) {
            std::size_t elements = 0;
            for (const auto& i : intervals)
                elements += i.size();
            poplar::VertexRef v = graph.addVertex(cs, vertexType);
            for (std::size_t f = 0; f < fields.size(); ++f)
                graph.connect(v[fields[f].first], gather(readers[f], intervals, groupSizes[f]));
            for (std::size_t l = 0; l < listFields.size(); ++l) {
                std::vector<poplar::Tensor> items;
                for (auto f = listRanges[l].first; f < listRanges[l].second; ++f)
                    items.push_back(gather(readers[f], intervals, 1));
                graph.connect(v[listFields[l].first], poplar::ArrayRef<poplar::Tensor>(items));
            }
            if (configure)
                configure(v);
            graph.setTileMapping(v, tile);
            graph.setPerfEstimate(v, cycles(elements));
        }
    }
}

std::vector<std::vector<poplar::Interval>>
contiguousRegions(const poplar::Tensor& flat, const std::vector<poplar::Interval>& intervals) {
    tilescope::sim::views::FlatIntervalReader reader(flat.view());
    bool wasSorted = true;
    const auto pieces = piecesInMemoryOrder(reader, intervals, wasSorted);
    std::vector<std::vector<poplar::Interval>> regions;
    for (std::size_t k = 0; k < pieces.size(); ++k) {
        const MemoryPiece& p = pieces[k];
        const bool follows = k > 0 && pieces[k - 1].variable == p.variable &&
                             pieces[k - 1].address + pieces[k - 1].size == p.address;
        if (!follows)
            regions.emplace_back();
        appendFlat(regions.back(), p);
    }
    return regions;
}

void PoplibsOpDebugInfo::addFlops(std::uint64_t flops) {
    tilescope::sim::OperationRegistry::instance().addFlops(getId(), flops);
}

std::string shapeString(const std::vector<std::size_t>& shape) {
    std::string s = "{";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? "," : "") + std::to_string(shape[i]);
    return s + "}";
}

std::vector<std::size_t> broadcastShape(const std::string& api, const poplar::Tensor& a,
                                        const poplar::Tensor& b) {
    return broadcastShapes(api, {a, b});
}

std::vector<std::size_t> broadcastShapes(const std::string& api,
                                         const std::vector<poplar::Tensor>& ts) {
    std::vector<std::size_t> out;
    for (const auto& t : ts)
        out.resize(std::max<std::size_t>(out.size(), t.rank()), 1);
    const std::size_t rank = out.size();
    for (std::size_t i = 0; i < rank; ++i) {
        for (const auto& t : ts) {
            const auto s = t.shape();
            const std::size_t d = i < rank - s.size() ? 1 : s[i - (rank - s.size())];
            if (d != out[i] && d != 1 && out[i] != 1) {
                std::string shapes;
                for (const auto& u : ts)
                    shapes += (shapes.empty() ? "" : " and ") +
                              ("tensor '" + u.getName() + "' of shape " + shapeString(u.shape()));
                throw poputil::poplibs_error(api + ": " + shapes +
                                             " cannot be broadcast together (dimension " +
                                             std::to_string(i) + ": " + std::to_string(out[i]) +
                                             " vs " + std::to_string(d) + ")");
            }
            out[i] = std::max(out[i], d);
        }
    }
    return out;
}

poplar::Tensor broadcastTo(const poplar::Tensor& t, const std::vector<std::size_t>& shape) {
    poplar::Tensor r = t;
    const auto have = t.shape();
    if (have.size() < shape.size()) {
        std::vector<std::size_t> full(shape.size() - have.size(), 1);
        full.insert(full.end(), have.begin(), have.end());
        r = r.reshape(full);
    }
    for (unsigned d = 0; d < shape.size(); ++d)
        if (r.dim(d) != shape[d])
            r = r.broadcast(static_cast<unsigned>(shape[d]), d);
    return r;
}

poplar::Tensor createOutput(poplar::Graph& graph, const poplar::Type& type,
                            const std::vector<std::size_t>& shape, const poplar::Tensor& like,
                            const poplar::DebugContext& debugContext) {
    if (like.valid() && like.shape() == shape && !like.containsAliases()) {
        bool mapped = true;
        try {
            graph.getTileMapping(like, true);
        } catch (const poplar::poplar_error&) {
            mapped = false;
        }
        if (mapped)
            return graph.clone(type, like, debugContext);
    }
    poplar::Tensor out = graph.addVariable(type, shape, debugContext);
    poputil::mapTensorLinearly(graph, out);
    return out;
}

} // namespace tilescope::poplibs
