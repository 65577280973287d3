// The graph of the transformer encoder block of transformer_block.cpp (HALF, PopLibs subset):
// attention with output projection and residual, then the MLP with GELU and residual. Shared by
// the example and by tilescope-bench-transformer, which times building and compiling it.
#pragma once

#include <cmath>
#include <cstddef>
#include <poplar/DebugInfo.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplin/MatMul.hpp>
#include <popnn/NonLinearity.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/TileMapping.hpp>
#include <string>
#include <utility>
#include <vector>

namespace encoder {

using namespace poplar;
using namespace poplar::program;

struct Sizes {
    std::size_t seq, model, heads, ff;
    std::size_t headDim() const { return model / heads; }
};

/// A HALF weight matrix laid out for `x (rows x in) * W (in x out)`, written from the host.
inline Tensor weight(Graph& graph, std::size_t rows, std::size_t in, std::size_t out,
                     const DebugContext& dc, const std::string& handle) {
    Tensor w = poplin::createMatMulInputRHS(graph, HALF, {rows, in}, {in, out}, dc);
    graph.createHostWrite(handle, w);
    return w;
}

/// Multi-head self-attention with output projection and residual: x + attention(x) Wo.
inline Tensor attention(Graph& graph, const Tensor& x, const Sizes& s, Sequence& prog,
                        const DebugContext& dc) {
    DebugInfo di(dc, "model");
    const Tensor wq = weight(graph, s.seq, s.model, s.model, {di, "wq"}, "wq");
    const Tensor wk = weight(graph, s.seq, s.model, s.model, {di, "wk"}, "wk");
    const Tensor wv = weight(graph, s.seq, s.model, s.model, {di, "wv"}, "wv");
    const Tensor wo = weight(graph, s.seq, s.model, s.model, {di, "wo"}, "wo");
    const Tensor q = poplin::matMul(graph, x, wq, prog, {di, "q"});
    const Tensor k = poplin::matMul(graph, x, wk, prog, {di, "k"});
    const Tensor v = poplin::matMul(graph, x, wv, prog, {di, "v"});
    const float scale = 1.0f / std::sqrt(float(s.headDim()));
    std::vector<Tensor> contexts;
    for (std::size_t h = 0; h < s.heads; ++h) {
        const std::string name = "head" + std::to_string(h);
        const std::size_t lo = h * s.headDim(), hi = lo + s.headDim();
        Tensor scores = poplin::matMul(graph, q.slice(lo, hi, 1), k.slice(lo, hi, 1).transpose(),
                                       prog, {di, name + "/scores"});
        popops::mapInPlace(graph, popops::expr::_1 * popops::expr::Const(scale), {scores}, prog,
                           {di, name + "/scale"});
        popnn::nonLinearityInPlace(graph, popnn::NonLinearityType::SOFTMAX, scores, prog,
                                   {di, name + "/softmax"});
        contexts.push_back(
            poplin::matMul(graph, scores, v.slice(lo, hi, 1), prog, {di, name + "/context"}));
    }
    const Tensor projected = poplin::matMul(graph, concat(contexts, 1), wo, prog, {di, "output"});
    return popops::add(graph, x, projected, prog, {di, "residual"});
}

/// The feed-forward block with residual: y + gelu(y W1 + b1) W2.
inline Tensor mlp(Graph& graph, const Tensor& y, const Sizes& s, Sequence& prog,
                  const DebugContext& dc) {
    DebugInfo di(dc, "model");
    const Tensor w1 = weight(graph, s.seq, s.model, s.ff, {di, "w1"}, "w1");
    const Tensor w2 = weight(graph, s.seq, s.ff, s.model, {di, "w2"}, "w2");
    Tensor b1 = graph.addVariable(HALF, {s.ff}, {di, "b1"});
    poputil::mapTensorLinearly(graph, b1);
    graph.createHostWrite("b1", b1);
    Tensor u = poplin::matMul(graph, y, w1, prog, {di, "up"});
    popops::addInPlace(graph, u, b1, prog, {di, "bias"});
    popnn::nonLinearityInPlace(graph, popnn::NonLinearityType::GELU, u, prog, {di, "gelu"});
    const Tensor down = poplin::matMul(graph, u, w2, prog, {di, "down"});
    return popops::add(graph, y, down, prog, {di, "residual"});
}

/// Builds the block on `graph` into `prog`: its input "x" and weights are host writes, its output
/// "out" a host read. Returns {x, out}.
inline std::pair<Tensor, Tensor> buildBlock(Graph& graph, const Sizes& s, Sequence& prog) {
    DebugInfo block(DebugContext("encoder"), "model");
    Tensor x = poplin::createMatMulInputLHS(graph, HALF, {s.seq, s.model}, {s.model, s.model},
                                            {block, "x"});
    graph.createHostWrite("x", x);
    const Tensor y = attention(graph, x, s, prog, {block, "attention"});
    const Tensor out = mlp(graph, y, s, prog, {block, "mlp"});
    graph.createHostRead("out", out);
    return {x, out};
}

} // namespace encoder
