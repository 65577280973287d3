#pragma once
// The top-k machinery shared by popops::topK* and popnn::topK: one vertex per row group of a
// {rows, columns} tensor picks each row's k largest or smallest values and their columns.

#include "common/ElementWiseBuilder.hpp"

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <string>

namespace popops::detail {

/// How topKRows orders and picks its k outputs of each row.
struct TopKRowsOrder {
    bool largest = true;    ///< pick the k largest (else the k smallest) values
    bool ascending = false; ///< output smallest first (else largest first)
};

/// The k selected values of each row of the 2D `input` as a new {rows, k} tensor of its type,
/// ordered as `order` says; equal values keep the lower column first. `indices` is set to a new
/// UNSIGNED_INT {rows, k} tensor of their columns. `api` names the caller in error messages.
poplar::Tensor topKRows(poplar::Graph& graph, poplar::program::Sequence& prog,
                        const poplar::Tensor& input, unsigned k, TopKRowsOrder order,
                        poplar::Tensor& indices, tilescope::poplibs::PoplibsOpDebugInfo& di,
                        const std::string& api);

/// out[row][j] = in[row][indices[row][j]] for a 2D `in` {rows, columns} and UNSIGNED_INT
/// `indices` {rows, k} laid out as topKRows makes them; a new tensor {rows, k} of in's type.
poplar::Tensor gatherRows(poplar::Graph& graph, poplar::program::Sequence& prog,
                          const poplar::Tensor& in, const poplar::Tensor& indices,
                          tilescope::poplibs::PoplibsOpDebugInfo& di, const std::string& api);

void registerTopKVertices(poplar::Graph& graph);

} // namespace popops::detail
