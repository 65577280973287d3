#include "TutorialPrograms.hpp"

#include <algorithm>
#include <limits>
#include <poplin/MatMul.hpp>
#include <poputil/TileMapping.hpp>

namespace tilescope::calibration {

using poplar::FLOAT;
using poplar::Tensor;

void buildChainedMatMuls(poplar::Graph& graph, poplar::program::Sequence& prog,
                         const ChainShapes& s) {
    Tensor m1 = graph.addVariable(FLOAT, {s.m, s.k}, "m1");
    Tensor m2 = graph.addVariable(FLOAT, {s.k, s.n}, "m2");
    Tensor m3 = graph.addVariable(FLOAT, {s.n, s.p}, "m3");
    for (const Tensor& t : {m1, m2, m3})
        poputil::mapTensorLinearly(graph, t);
    Tensor m4 = poplin::matMul(graph, m1, m2, prog, "m4");
    poplin::matMul(graph, m4, m3, prog, "m5");
}

namespace {

unsigned ceilDiv(unsigned a, unsigned b) {
    return (a + b - 1) / b;
}

/// Tutorial 6's cost of one split, as its README describes the model.
unsigned splitCost(const poplar::Target& target, unsigned rows, unsigned cols, unsigned split) {
    const unsigned tiles = target.getNumTiles();
    const unsigned workers = target.getNumWorkerContexts();
    const unsigned rate = target.getExchangeBytesPerCycle();
    const unsigned segment = ceilDiv(cols, split);
    const unsigned dotsPerTile = std::max(ceilDiv(rows * split, tiles), 1u);
    const unsigned dotCycles = 5 + (segment + 1) / 2;
    const unsigned compute = ceilDiv(dotsPerTile, workers) * workers * dotCycles;
    const unsigned exchange = ceilDiv(dotsPerTile, rows) * segment * unsigned(sizeof(float)) / rate;
    const unsigned sumsPerTile = std::max(ceilDiv(rows, tiles), 1u);
    const unsigned sumCycles = 5 + (split + 1) / 2;
    const unsigned reduceCompute = ceilDiv(sumsPerTile, workers) * workers * sumCycles;
    const unsigned reduceExchange = sumsPerTile * split * unsigned(sizeof(float)) / rate;
    return compute + exchange + reduceCompute + reduceExchange;
}

} // namespace

unsigned tutorial6Split(const poplar::Target& target, unsigned rows, unsigned cols,
                        unsigned* worstCost) {
    unsigned best = 1, bestCost = std::numeric_limits<unsigned>::max(), worst = 0;
    for (unsigned split = 1; split < cols; ++split) {
        const unsigned cost = splitCost(target, rows, cols, split);
        if (cost < bestCost) {
            best = split;
            bestCost = cost;
        }
        worst = std::max(worst, cost);
    }
    if (worstCost)
        *worstCost = worst;
    return best;
}

poplar::program::Sequence buildSplitMatrixVector(poplar::Graph& graph, unsigned rows, unsigned cols,
                                                 const std::string& codeletFile) {
    graph.addCodelets(codeletFile);
    Tensor matrix = graph.addVariable(FLOAT, {rows, cols}, "matrix");
    Tensor x = graph.addVariable(FLOAT, {cols}, "inputVector");
    Tensor y = graph.addVariable(FLOAT, {rows}, "outputVector");
    const unsigned tiles = graph.getTarget().getNumTiles();
    const unsigned split = tutorial6Split(graph.getTarget(), rows, cols);
    Tensor partials = graph.addVariable(FLOAT, {rows, split}, "partials");
    // Nobody owns the vector: it is spread over all tiles.
    for (unsigned i = 0; i < cols; ++i)
        graph.setTileMapping(x[i], i * tiles / cols);

    poplar::ComputeSet dots = graph.addComputeSet("mulCS");
    for (unsigned s = 0; s < split; ++s) {
        const unsigned begin = s * cols / split, end = (s + 1) * cols / split;
        if (begin == end)
            continue;
        for (unsigned r = 0; r < rows; ++r) {
            const Tensor segment = matrix[r].slice(begin, end);
            auto v = graph.addVertex(
                dots, "SegmentDotProduct",
                {{"row", segment}, {"x", x.slice(begin, end)}, {"partial", partials[r][s]}});
            const unsigned tile = unsigned(std::uint64_t(s * rows + r) * tiles / (split * rows));
            graph.setTileMapping(v, tile);
            graph.setTileMapping(segment, tile);
            graph.setTileMapping(partials[r][s], tile);
            // As the tutorial states it: 5 cycles of set-up, then 2 multiply-accumulates a cycle.
            graph.setPerfEstimate(v, 5 + (end - begin + 1) / 2);
        }
    }
    poplar::ComputeSet sums = graph.addComputeSet("reduceCS");
    for (unsigned r = 0; r < rows; ++r) {
        auto v = graph.addVertex(sums, "PartialSum", {{"partials", partials[r]}, {"sum", y[r]}});
        const unsigned tile = unsigned(std::uint64_t(r) * tiles / rows);
        graph.setTileMapping(v, tile);
        graph.setTileMapping(y[r], tile);
        graph.setPerfEstimate(v, 5 + (split + 1) / 2);
    }

    auto vectorIn = graph.addHostToDeviceFIFO("inputVector", FLOAT, cols);
    auto matrixIn = graph.addHostToDeviceFIFO("inputMatrix", FLOAT, std::size_t(rows) * cols);
    auto resultOut = graph.addDeviceToHostFIFO("out", FLOAT, rows);
    using namespace poplar::program;
    return Sequence({Copy(vectorIn, x), Copy(matrixIn, matrix), Execute(dots), Execute(sums),
                     Copy(y, resultOut)});
}

} // namespace tilescope::calibration
