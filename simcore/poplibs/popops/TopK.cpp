// popops::topK, topKWithPermutation, topKKeyValue, createTopKInput and the SortOrder/TopKParams
// printers: the innermost dimension is flattened into rows for the shared row top-k vertices.

#include "popops/TopK.hpp"

#include "popops/SortOrder.hpp"
#include "popops/TopKRows.hpp"

#include <ostream>
#include <poplar/exceptions.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

namespace pl = tilescope::poplibs;
using poplar::Tensor;

std::ostream& operator<<(std::ostream& os, const SortOrder& o) {
    switch (o) {
    case SortOrder::NONE:
        return os << "NONE";
    case SortOrder::ASCENDING:
        return os << "ASCENDING";
    case SortOrder::DESCENDING:
        return os << "DESCENDING";
    }
    return os << "SortOrder(" << static_cast<int>(o) << ")";
}

TopKParams::TopKParams(unsigned k_, bool largest_, SortOrder sortOrder_, bool stableSort_) noexcept
    : k(k_), largest(largest_), sortOrder(sortOrder_), stableSort(stableSort_) {}

std::ostream& operator<<(std::ostream& os, const TopKParams& p) {
    return os << "{k=" << p.k << ", largest=" << (p.largest ? "true" : "false")
              << ", sortOrder=" << p.sortOrder
              << ", stableSort=" << (p.stableSort ? "true" : "false") << "}";
}

namespace {

/// The top-k of `t` viewed as {rows, innermost}: {values, indices}, both shaped as t with the
/// innermost dimension k.
std::pair<Tensor, Tensor> topKOfRows(poplar::Graph& graph, poplar::program::Sequence& prog,
                                     const Tensor& t, const TopKParams& params,
                                     pl::PoplibsOpDebugInfo& di, const std::string& api) {
    if (t.rank() == 0)
        throw poputil::poplibs_error(api + ": input '" + t.getName() +
                                     "' is a scalar; it needs an innermost dimension");
    if (params.sortOrder != SortOrder::NONE && params.sortOrder != SortOrder::ASCENDING &&
        params.sortOrder != SortOrder::DESCENDING)
        throw poputil::poplibs_error(api + ": unknown SortOrder " +
                                     std::to_string(static_cast<int>(params.sortOrder)));
    const std::size_t columns = t.dim(t.rank() - 1);
    const std::size_t rows = columns == 0 ? 0 : t.numElements() / columns;
    detail::TopKRowsOrder order;
    order.largest = params.largest;
    // NONE returns the picking order: best first.
    order.ascending = params.sortOrder == SortOrder::ASCENDING ||
                      (params.sortOrder == SortOrder::NONE && !params.largest);
    Tensor indices;
    Tensor values = detail::topKRows(graph, prog, t.reshape({rows, columns}), params.k, order,
                                     indices, di, api);
    std::vector<std::size_t> shape = t.shape();
    shape.back() = params.k;
    return {values.reshape(shape), indices.reshape(shape)};
}

} // namespace

Tensor createTopKInput(poplar::Graph& graph, const poplar::Type& type,
                       const std::vector<std::size_t>& shape, const TopKParams& params,
                       const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(type, shape), "createTopKInput");
    (void)params;
    Tensor t = graph.addVariable(type, shape, {di, "topKInput"});
    // Whole rows per tile, as the row vertices read them.
    const std::size_t columns = shape.empty() ? 1 : shape.back();
    poputil::mapTensorLinearly(graph, t, 1, static_cast<unsigned>(columns == 0 ? 1 : columns));
    return t;
}

Tensor topK(poplar::Graph& graph, poplar::program::Sequence& prog, const Tensor& t,
            const TopKParams& params, const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t), "topK");
    di.setValue("k", params.k);
    return topKOfRows(graph, prog, t, params, di, "popops::topK").first;
}

std::pair<Tensor, Tensor> topKWithPermutation(poplar::Graph& graph, poplar::program::Sequence& prog,
                                              const Tensor& t, const TopKParams& params,
                                              const poplar::DebugContext& debugContext) {
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t), "topKWithPermutation");
    di.setValue("k", params.k);
    return topKOfRows(graph, prog, t, params, di, "popops::topKWithPermutation");
}

std::pair<Tensor, Tensor> topKKeyValue(poplar::Graph& graph, poplar::program::Sequence& prog,
                                       const Tensor& keys, const Tensor& values,
                                       const TopKParams& params,
                                       const poplar::DebugContext& debugContext) {
    const std::string api = "popops::topKKeyValue";
    pl::PoplibsOpDebugInfo di(debugContext, DI_ARGS(keys, values), "topKKeyValue");
    di.setValue("k", params.k);
    if (keys.shape() != values.shape())
        throw poputil::poplibs_error(api + ": values '" + values.getName() + "' of shape " +
                                     values.shapeToString() + " must have the shape of keys '" +
                                     keys.getName() + "' " + keys.shapeToString());
    auto top = topKOfRows(graph, prog, keys, params, di, api);
    const std::size_t columns = keys.dim(keys.rank() - 1);
    const std::size_t rows = keys.numElements() / columns;
    Tensor permuted =
        detail::gatherRows(graph, prog, values.reshape({rows, columns}),
                           top.second.reshape({rows, std::size_t(params.k)}), di, api);
    return {top.first, permuted.reshape(top.first.shape())};
}

} // namespace popops
