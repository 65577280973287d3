#include "poplin/ConvReduce.hpp"

#include "common/ConvCycleEstimates.hpp"

#include <cmath>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>
#include <utility>

namespace tilescope::poplibs {

namespace {

std::size_t ceilDiv(std::size_t a, std::size_t b) {
    return (a + b - 1) / b;
}

/// PopLibs' stage count (ConvReducePlan.cpp, chosen there by benchmarking): more stages mean
/// fewer messages per tile when an output has many partials.
unsigned numReduceStages(unsigned depth) {
    if (depth >= 125)
        return 3;
    if (depth >= 16)
        return 2;
    return 1;
}

/// The intermediate depths for `stages` stages and their cost, the average messages a tile
/// receives: the sum over the stages of depth in / depth out. Each stage goes to the n-th root
/// of what is left, rounded down or up, whichever costs less.
std::pair<std::vector<unsigned>, double> planStages(unsigned depth, unsigned stages) {
    if (stages <= 1)
        return {{}, double(depth)};
    const auto down =
        static_cast<unsigned>(std::pow(double(depth), (double(stages) - 1.0) / double(stages)));
    auto best = planStages(down, stages - 1);
    best.second += double(depth) / down;
    auto up = planStages(down + 1, stages - 1);
    up.second += double(depth) / (down + 1);
    if (best.second < up.second) {
        best.first.insert(best.first.begin(), down);
        return best;
    }
    up.first.insert(up.first.begin(), down + 1);
    return up;
}

/// Adds to `cs` the vertices writing `dst` (flat, mapped) from `srcs` ({depth, dst size}): one
/// poplin::ReduceAdd on each tile that holds part of `dst`, over all of that tile's pieces.
void addReduceVertices(poplar::Graph& graph, poplar::ComputeSet cs, const poplar::Tensor& srcs,
                       const poplar::Tensor& dst) {
    const auto& target = graph.getTarget();
    const unsigned depth = static_cast<unsigned>(srcs.dim(0));
    const std::string vertexType =
        poputil::templateVertex("poplin::ReduceAdd", dst.elementType(), srcs.elementType());
    const auto mapping = graph.getTileMapping(dst);
    for (unsigned tile = 0; tile < mapping.size(); ++tile) {
        if (mapping[tile].empty())
            continue;
        std::vector<poplar::Tensor> outs;
        for (const auto& interval : mapping[tile])
            outs.push_back(dst.slice(interval.begin(), interval.end()));
        std::vector<poplar::Tensor> ins;
        for (unsigned j = 0; j < depth; ++j)
            for (const auto& interval : mapping[tile])
                ins.push_back(srcs[j].slice(interval.begin(), interval.end()));
        const poplar::Tensor out = poplar::concat(outs);
        poplar::VertexRef v = graph.addVertex(cs, vertexType);
        graph.connect(v["partials"], poplar::concat(ins));
        graph.connect(v["out"], out);
        graph.setInitialValue(v["numPartials"], depth);
        graph.setTileMapping(v, tile);
        graph.setPerfEstimate(
            v, depth == 1 ? cycles::convPartialsCast(target, dst.elementType(), srcs.elementType(),
                                                     out.numElements())
                          : cycles::convReduceAdd(target, dst.elementType(), srcs.elementType(),
                                                  out.numElements(), depth));
    }
}

} // namespace

std::vector<unsigned> multiStageReducePlan(unsigned partialsDepth) {
    return planStages(partialsDepth, numReduceStages(partialsDepth)).first;
}

std::uint64_t partialSumExchangeCycles(std::uint64_t partials, unsigned partialsDepth,
                                       std::uint64_t partialBytes, std::uint64_t rate) {
    std::uint64_t total = ceilDiv(partials * partialBytes, rate);
    if (partialsDepth <= 1)
        return total;
    std::uint64_t remaining = partialsDepth, outputs = partials;
    bool first = true;
    for (unsigned next : multiStageReducePlan(partialsDepth)) {
        if (!first)
            total += ceilDiv(outputs * partialBytes, rate);
        const std::uint64_t group = ceilDiv(remaining, next);
        outputs = ceilDiv(outputs, group);
        remaining = ceilDiv(remaining, group);
        first = false;
    }
    if (remaining > 1 && !first)
        total += ceilDiv(outputs * partialBytes, rate);
    return total;
}

std::uint64_t reducePartialsTileCycles(const poplar::Target& target, const poplar::Type& outType,
                                       const poplar::Type& partialsType, std::uint64_t outputs,
                                       unsigned partialsDepth) {
    if (partialsDepth <= 1)
        return outType == partialsType
                   ? 0
                   : cycles::convPartialsCast(target, outType, partialsType, outputs);
    // Each intermediate stage leaves `next` partials per output; a tile holds the results of
    // its share, so its outputs grow by the depth it removes.
    std::uint64_t total = 0;
    unsigned depth = partialsDepth;
    for (unsigned next : multiStageReducePlan(partialsDepth)) {
        const unsigned group = static_cast<unsigned>(ceilDiv(depth, next));
        total += cycles::convReduceAdd(target, partialsType, partialsType,
                                       ceilDiv(outputs * depth, group), group);
        depth = static_cast<unsigned>(ceilDiv(depth, group));
    }
    return total + cycles::convReduceAdd(target, outType, partialsType, outputs, depth);
}

std::size_t reducePartials(poplar::Graph& graph, const poplar::Tensor& partials,
                           const poplar::Tensor& out, poplar::program::Sequence& prog,
                           PoplibsOpDebugInfo& di) {
    if (partials.rank() < 1 || partials.dim(0) == 0 ||
        partials[0].numElements() != out.numElements())
        throw poputil::poplibs_error("poplin: partials '" + partials.getName() + "' of shape " +
                                     partials.shapeToString() + " do not reduce into '" +
                                     out.getName() + "' of shape " + out.shapeToString());
    const std::size_t n = out.numElements();
    poplar::Tensor current = partials.reshape({partials.dim(0), n});
    std::size_t depth = current.dim(0);
    if (depth == 1 && partials.elementType() == out.elementType())
        return 0;
    std::size_t added = 0;
    for (unsigned next : multiStageReducePlan(static_cast<unsigned>(depth))) {
        const std::size_t group = ceilDiv(depth, next);
        const std::size_t groups = ceilDiv(depth, group);
        poplar::Tensor stage = graph.addVariable(partials.elementType(), {groups, n},
                                                 {di, "partials_#" + std::to_string(added)});
        poplar::ComputeSet cs = graph.addComputeSet({di, "Reduce_#" + std::to_string(added)});
        for (std::size_t j = 0; j < groups; ++j) {
            // A stage's results are shared by the tiles of its group: the c-th of them keeps the
            // c-th slice of the outputs where its own partials of them are, so each reduces what
            // it already holds plus what the group's other tiles send, and all of them work.
            const std::size_t first = j * group, members = std::min(depth, first + group) - first;
            for (std::size_t c = 0; c < members; ++c) {
                const std::size_t begin = c * n / members, end = (c + 1) * n / members;
                if (begin == end)
                    continue;
                const auto mapping = graph.getTileMapping(current[first + c].slice(begin, end));
                for (unsigned tile = 0; tile < mapping.size(); ++tile)
                    for (const auto& interval : mapping[tile])
                        graph.setTileMapping(
                            stage[j].slice(begin + interval.begin(), begin + interval.end()), tile);
            }
            addReduceVertices(graph, cs, current.slice(j * group, std::min(depth, (j + 1) * group)),
                              stage[j]);
        }
        prog.add(poplar::program::Execute(cs, {di}));
        current = stage;
        depth = groups;
        ++added;
    }
    poplar::ComputeSet cs = graph.addComputeSet({di, depth == 1 ? "Cast" : "Reduce"});
    addReduceVertices(graph, cs, current, out.flatten());
    prog.add(poplar::program::Execute(cs, {di}));
    return added + 1;
}

} // namespace tilescope::poplibs
