// poputil broadcasting helpers and utilities (duplicate, cloneN, index and partition helpers).

#include "poputil/Util.hpp"

#include "common/ElementWiseBuilder.hpp"
#include "poputil/Broadcast.hpp"

#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

namespace poputil {

namespace pl = tilescope::poplibs;

void broadcastToMatch(poplar::Tensor& a, const std::vector<std::size_t>& shape) {
    if (a.rank() > shape.size())
        throw poputil::poplibs_error("poputil::broadcastToMatch: tensor '" + a.getName() +
                                     "' of shape " + a.shapeToString() +
                                     " has more dimensions than shape " + pl::shapeString(shape));
    for (std::size_t d = 0; d < a.rank(); ++d) {
        const std::size_t have = a.dim(static_cast<unsigned>(d));
        const std::size_t want = shape[shape.size() - a.rank() + d];
        if (have != want && have != 1)
            throw poputil::poplibs_error("poputil::broadcastToMatch: tensor '" + a.getName() +
                                         "' of shape " + a.shapeToString() +
                                         " does not broadcast to " + pl::shapeString(shape));
    }
    a = pl::broadcastTo(a, shape);
}

void broadcastToMatch(poplar::Tensor& a, poplar::Tensor& b) {
    const auto shape = pl::broadcastShape("poputil::broadcastToMatch", a, b);
    a = pl::broadcastTo(a, shape);
    b = pl::broadcastTo(b, shape);
}

void broadcastToMatch(poplar::Tensor& a, poplar::Tensor& b, poplar::Tensor& c) {
    const auto shape = pl::broadcastShapes("poputil::broadcastToMatch", {a, b, c});
    a = pl::broadcastTo(a, shape);
    b = pl::broadcastTo(b, shape);
    c = pl::broadcastTo(c, shape);
}

poplar::Tensor extendDimensionsToMatch(poplar::Tensor in1, poplar::Tensor in2) {
    if (in2.rank() > in1.rank())
        throw poputil::poplibs_error("poputil::extendDimensionsToMatch: tensor '" + in2.getName() +
                                     "' of shape " + in2.shapeToString() +
                                     " has more dimensions than tensor '" + in1.getName() +
                                     "' of shape " + in1.shapeToString());
    std::vector<std::size_t> shape(in1.rank() - in2.rank(), 1);
    const auto rest = in2.shape();
    shape.insert(shape.end(), rest.begin(), rest.end());
    return in2.reshape(shape);
}

poplar::Tensor duplicate(poplar::Graph& graph, const poplar::Tensor& in,
                         poplar::program::Sequence& prog, const poplar::DebugContext& debugContext,
                         poplar::TensorCloneMethod method) {
    poplar::Tensor out = graph.clone(in, debugContext, method);
    prog.add(poplar::program::Copy(in, out, false, debugContext));
    return out;
}

poplar::Tensor cloneN(poplar::Graph& graph, const poplar::Tensor& t, unsigned N,
                      const poplar::DebugContext& debugContext, poplar::TensorCloneMethod method) {
    std::vector<poplar::Tensor> clones;
    for (unsigned i = 0; i < N; ++i)
        clones.push_back(graph.clone(t, debugContext, method).expand({0}));
    if (clones.empty()) {
        std::vector<std::size_t> shape = t.shape();
        shape.insert(shape.begin(), 0);
        return graph.addVariable(t.elementType(), shape, debugContext);
    }
    return poplar::concat(clones, 0);
}

std::size_t intervalSequenceNumElements(const std::vector<std::vector<poplar::Interval>>& seq) {
    std::size_t n = 0;
    for (const auto& intervals : seq)
        for (const auto& i : intervals)
            n += i.size();
    return n;
}

std::vector<int> balancedPartition(int rangeUpperBound, int splitCount) {
    if (splitCount <= 0)
        throw poputil::poplibs_error(
            "poputil::balancedPartition: splitCount must be positive, got " +
            std::to_string(splitCount));
    std::vector<int> sizes(static_cast<std::size_t>(splitCount), rangeUpperBound / splitCount);
    for (int i = 0; i < rangeUpperBound % splitCount; ++i)
        ++sizes[static_cast<std::size_t>(i)];
    return sizes;
}

} // namespace poputil
