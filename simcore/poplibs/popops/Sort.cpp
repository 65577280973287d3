// popops::sort, sortInPlace, sortKeyValue and sortKeyValueInPlace over the row top-k vertices:
// the sorted dimension is rolled innermost, each row is fully "top-k'd" smallest first (a stable
// sort: ties keep the lower index), and the result is rolled back.

#include "popops/Sort.hpp"

#include "popops/TopKRows.hpp"

#include <poplar/Program.hpp>
#include <poputil/exceptions.hpp>
#include <string>
#include <utility>

namespace popops {

namespace pl = tilescope::poplibs;
using poplar::Tensor;

namespace {

void checkDim(const Tensor& t, unsigned dim, const std::string& api) {
    if (dim >= t.rank())
        throw poputil::poplibs_error(api + ": dimension " + std::to_string(dim) +
                                     " is out of range for tensor '" + t.getName() + "' of shape " +
                                     t.shapeToString());
}

/// `t` with `dim` rolled innermost, flattened to {rows, size of dim}.
Tensor asRows(const Tensor& t, unsigned dim) {
    const Tensor rolled = t.dimRoll(dim, t.rank() - 1);
    const std::size_t columns = t.dim(dim);
    return rolled.reshape({t.numElements() / columns, columns});
}

/// The inverse of asRows for a {rows, columns} result: shaped and ordered as `like`.
Tensor fromRows(const Tensor& rows, const Tensor& like, unsigned dim) {
    return rows.reshape(like.dimRoll(dim, like.rank() - 1).shape()).dimRoll(like.rank() - 1, dim);
}

/// The sorted rows of `t` along `dim` and the UNSIGNED_INT index each came from, both shaped
/// {rows, columns} as asRows makes them.
std::pair<Tensor, Tensor> sortRows(poplar::Graph& graph, poplar::program::Sequence& prog,
                                   const Tensor& t, unsigned dim, pl::PoplibsOpDebugInfo& di,
                                   const std::string& api) {
    const Tensor rows = asRows(t, dim);
    detail::TopKRowsOrder order;
    order.largest = false;
    order.ascending = true;
    Tensor indices;
    Tensor sorted = detail::topKRows(graph, prog, rows, static_cast<unsigned>(rows.dim(1)), order,
                                     indices, di, api);
    return {sorted, indices};
}

} // namespace

Tensor sort(poplar::Graph& graph, const Tensor& t, unsigned dim, poplar::program::Sequence& prog,
            const poplar::DebugContext& debugContext) {
    const std::string api = "popops::sort";
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, dim), "sort");
    checkDim(t, dim, api);
    if (t.numElements() == 0)
        return graph.addVariable(t.elementType(), t.shape(), {di, "sorted"});
    Tensor out = fromRows(sortRows(graph, prog, t, dim, di, api).first, t, dim);
    di.addOutput(out);
    return out;
}

void sortInPlace(poplar::Graph& graph, const Tensor& t, unsigned dim,
                 poplar::program::Sequence& prog, const poplar::DebugContext& debugContext) {
    const std::string api = "popops::sortInPlace";
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, dim), "sortInPlace");
    checkDim(t, dim, api);
    if (t.numElements() == 0)
        return;
    Tensor sorted = fromRows(sortRows(graph, prog, t, dim, di, api).first, t, dim);
    prog.add(poplar::program::Copy(sorted, t, false, {di}));
}

namespace {

/// The sorted keys and the permuted values, both shaped and ordered as `k`.
std::pair<Tensor, Tensor> sortKeyValuePair(poplar::Graph& graph, const Tensor& k, const Tensor& v,
                                           unsigned dim, poplar::program::Sequence& prog,
                                           pl::PoplibsOpDebugInfo& di, const std::string& api) {
    checkDim(k, dim, api);
    if (k.shape() != v.shape())
        throw poputil::poplibs_error(api + ": values '" + v.getName() + "' of shape " +
                                     v.shapeToString() + " must have the shape of keys '" +
                                     k.getName() + "' " + k.shapeToString());
    auto sorted = sortRows(graph, prog, k, dim, di, api);
    Tensor permuted = detail::gatherRows(graph, prog, asRows(v, dim), sorted.second, di, api);
    return {fromRows(sorted.first, k, dim), fromRows(permuted, v, dim)};
}

} // namespace

Tensor sortKeyValue(poplar::Graph& graph, const Tensor& k, const Tensor& v, unsigned dim,
                    poplar::program::Sequence& prog, const poplar::DebugContext& debugContext) {
    const std::string api = "popops::sortKeyValue";
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(k, v, dim), "sortKeyValue");
    if (k.numElements() == 0 && k.shape() == v.shape())
        return graph.addVariable(v.elementType(), v.shape(), {di, "sorted"});
    Tensor out = sortKeyValuePair(graph, k, v, dim, prog, di, api).second;
    di.addOutput(out);
    return out;
}

void sortKeyValueInPlace(poplar::Graph& graph, const Tensor& k, const Tensor& v, unsigned dim,
                         poplar::program::Sequence& prog,
                         const poplar::DebugContext& debugContext) {
    const std::string api = "popops::sortKeyValueInPlace";
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(k, v, dim), "sortKeyValueInPlace");
    if (k.numElements() == 0 && k.shape() == v.shape())
        return;
    auto sorted = sortKeyValuePair(graph, k, v, dim, prog, di, api);
    prog.add(poplar::program::Copy(sorted.first, k, false, {di}));
    prog.add(poplar::program::Copy(sorted.second, v, false, {di}));
}

} // namespace popops
