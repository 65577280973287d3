// popops::Transpose2d: the vertex, its registration and the helper that spreads a transpose
// over a tile's workers.

#include "popops/Transpose2d.hpp"

#include "popops/PopopsCodelets.hpp"
#include "tilescope/sim/BuiltinVertex.hpp"

#include <algorithm>
#include <poplar/Vertex.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>
#include <string>
#include <tilescope/sim/CodeletRegistration.hpp>

namespace tilescope::poplibs {

namespace {

/// dst[m] = transpose of src[m] for each matrix m of numSrcRows x numSrcColumns (row-major).
/// PopLibs' field layout: lists of source and destination matrices and the source shape.
template <typename T> class Transpose2d : public poplar::Vertex {
public:
    poplar::Vector<poplar::Input<poplar::Vector<T>>> src;
    poplar::Vector<poplar::Output<poplar::Vector<T>>> dst;
    unsigned short numSrcRows = 0;
    unsigned short numSrcColumns = 0;

    bool compute() {
        for (std::size_t m = 0; m < dst.size(); ++m)
            for (unsigned r = 0; r < numSrcRows; ++r)
                for (unsigned c = 0; c < numSrcColumns; ++c)
                    dst[m][std::size_t(c) * numSrcRows + r] =
                        src[m][std::size_t(r) * numSrcColumns + c];
        return true;
    }

    static void visit(void* o, sim::abi::FieldVisitor& f) {
        auto& v = *static_cast<Transpose2d*>(o);
        sim::abi::describeField(f, "src", v.src);
        sim::abi::describeField(f, "dst", v.dst);
        sim::abi::describeField(f, "numSrcRows", v.numSrcRows);
        sim::abi::describeField(f, "numSrcColumns", v.numSrcColumns);
    }
};

template <typename T> void registerTranspose(poplar::Graph& graph) {
    using V = Transpose2d<T>;
    sim::registerBuiltinVertex<V>(
        graph,
        poputil::templateVertex("popops::Transpose2d", poplar::equivalent_device_type<T>().value),
        &V::visit);
}

// The hardware repeat count limit (CSR_W_REPEAT_COUNT mask + 1) and the largest stride PopLibs'
// fast paths use, from its Transpose2d estimator.
constexpr std::uint64_t kRepeatCountLimit = 0x0FFF + 1;
constexpr std::uint64_t kMaxStride = 512;
// numSrcRows and numSrcColumns are unsigned short fields, as in PopLibs.
constexpr std::size_t kMaxFieldValue = 0xFFFF;

} // namespace

std::uint64_t transpose2dCycles(const poplar::Type& type, std::uint64_t rows, std::uint64_t cols,
                                std::uint64_t matrices) {
    const bool fourByte =
        type == poplar::FLOAT || type == poplar::INT || type == poplar::UNSIGNED_INT;
    if (fourByte) {
        if (rows % 2 == 0 && cols % 2 == 0 && cols >= 2 && cols / 2 < kRepeatCountLimit &&
            rows * (cols - 2) / 2 < kMaxStride && rows < kMaxStride)
            return 27 + matrices * (11 + (rows / 2) * (6 + 3 * (cols / 2 - 1)));
        return 13 + matrices * (8 + cols * (5 + (rows * 4) / 2));
    }
    if (rows % 4 == 0 && cols % 4 == 0 && cols >= 8 && cols / 4 < kRepeatCountLimit &&
        1 + 3 * (cols / 4) < kMaxStride)
        return 37 + matrices * (12 + (rows / 4) * (15 + 4 * (cols / 4 - 2)));
    if (rows % 4 == 0 && cols == 4 && rows / 4 < kRepeatCountLimit &&
        1 + 3 * (rows / 4) < kMaxStride)
        return rows == 4 ? 32 + 15 * matrices : 28 + matrices * (17 + (20 + 4 * (rows / 4 - 2)));
    return 15 + matrices * (8 + cols * (5 + (rows * 5) / 2));
}

void addTranspose2d(poplar::Graph& graph, poplar::ComputeSet cs, const poplar::Tensor& src,
                    const poplar::Tensor& dst, unsigned tile, std::size_t rowsPerBand) {
    const std::size_t rows = src.dim(0), cols = src.dim(1);
    if (dst.rank() != 2 || dst.dim(0) != cols || dst.dim(1) != rows ||
        dst.elementType() != src.elementType())
        throw poputil::poplibs_error("popops::Transpose2d: cannot write a " + src.shapeToString() +
                                     " transpose into " + dst.shapeToString());
    if (cols > kMaxFieldValue)
        throw poputil::poplibs_error("popops::Transpose2d: " + std::to_string(cols) +
                                     " source columns do not fit the vertex's 16-bit field");
    const poplar::Type type = src.elementType();
    const unsigned workers = graph.getTarget().getNumWorkerContexts();
    // Bands of source rows, even-sized (a multiple of 4 for 2-byte types) where possible so
    // PopLibs' fast path applies.
    const std::size_t grain = graph.getTarget().getTypeSize(type) == 4 ? 2 : 4;
    std::size_t band = rowsPerBand ? rowsPerBand : (rows + workers - 1) / workers;
    band = std::min(kMaxFieldValue / grain * grain,
                    std::max(grain, (band + grain - 1) / grain * grain));
    const std::string vertexType = poputil::templateVertex("popops::Transpose2d", type);
    for (std::size_t begin = 0; begin < rows; begin += band) {
        const std::size_t end = std::min(rows, begin + band);
        poplar::VertexRef v = graph.addVertex(cs, vertexType);
        graph.connect(v["src"], std::vector<poplar::Tensor>{src.slice(begin, end, 0).flatten()});
        graph.connect(v["dst"], std::vector<poplar::Tensor>{dst.slice(begin, end, 1).flatten()});
        graph.setInitialValue(v["numSrcRows"], static_cast<unsigned short>(end - begin));
        graph.setInitialValue(v["numSrcColumns"], static_cast<unsigned short>(cols));
        graph.setTileMapping(v, tile);
        graph.setPerfEstimate(v, transpose2dCycles(type, end - begin, cols, 1));
    }
}

void addTranspositions(poplar::Graph& graph, poplar::ComputeSet cs,
                       const std::vector<poplar::Tensor>& srcs,
                       const std::vector<poplar::Tensor>& dsts, std::size_t rows, std::size_t cols,
                       unsigned tile) {
    if (srcs.size() != dsts.size() || srcs.empty())
        throw poputil::poplibs_error("popops::Transpose2d: " + std::to_string(srcs.size()) +
                                     " sources for " + std::to_string(dsts.size()) +
                                     " destinations");
    if (rows > kMaxFieldValue || cols > kMaxFieldValue)
        throw poputil::poplibs_error("popops::Transpose2d: a " + std::to_string(rows) + " x " +
                                     std::to_string(cols) +
                                     " transposition does not fit the vertex's 16-bit fields");
    const poplar::Type type = srcs.front().elementType();
    for (std::size_t i = 0; i < srcs.size(); ++i)
        if (srcs[i].numElements() != rows * cols || dsts[i].numElements() != rows * cols ||
            srcs[i].elementType() != type || dsts[i].elementType() != type)
            throw poputil::poplibs_error("popops::Transpose2d: transposition " + std::to_string(i) +
                                         " is not " + std::to_string(rows) + " x " +
                                         std::to_string(cols) + " of " + type.toString());
    const std::size_t workers = graph.getTarget().getNumWorkerContexts();
    const std::size_t vertices = std::min(workers, srcs.size());
    const std::string vertexType = poputil::templateVertex("popops::Transpose2d", type);
    for (std::size_t w = 0; w < vertices; ++w) {
        const std::size_t begin = w * srcs.size() / vertices;
        const std::size_t end = (w + 1) * srcs.size() / vertices;
        poplar::VertexRef v = graph.addVertex(cs, vertexType);
        std::vector<poplar::Tensor> in, out;
        for (std::size_t i = begin; i < end; ++i) {
            in.push_back(srcs[i].flatten());
            out.push_back(dsts[i].flatten());
        }
        graph.connect(v["src"], in);
        graph.connect(v["dst"], out);
        graph.setInitialValue(v["numSrcRows"], static_cast<unsigned short>(rows));
        graph.setInitialValue(v["numSrcColumns"], static_cast<unsigned short>(cols));
        graph.setTileMapping(v, tile);
        graph.setPerfEstimate(v, transpose2dCycles(type, rows, cols, end - begin));
    }
}

} // namespace tilescope::poplibs

namespace popops::detail {

void registerTransposeVertices(poplar::Graph& graph) {
    tilescope::poplibs::registerTranspose<float>(graph);
    tilescope::poplibs::registerTranspose<poplar::half>(graph);
}

} // namespace popops::detail
