// Uses the PopLibs helpers real programs reach for besides matMul: element-wise
// outputs, comparisons and logical operations, select and clamp, allTrue, casts
// to and from BOOL, reductions from popops/Reduce.hpp (scaled, updating,
// several in one compute set), popops::zero, one-hot encoding, iota, argMax and
// popnn::calcLoss / calcAccuracy returning programs, and popops::topK and its
// permutation and key-value forms. Prints every result for
// check.sh to compare with expected.txt.

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popnn/Loss.hpp>
#include <popnn/codelets.hpp>
#include <popops/AllTrue.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/ElementWiseUtil.hpp>
#include <popops/Encoding.hpp>
#include <popops/Reduce.hpp>
#include <popops/SortOrder.hpp>
#include <popops/TopK.hpp>
#include <popops/Zero.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <iostream>
#include <string>
#include <utility>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

// Registers a tensor to read back after the run.
void readBack(Graph &graph, const Tensor &t, const std::string &name) {
  graph.createHostRead(name, t);
}

template <typename T>
void print(Engine &engine, const std::string &name, std::size_t n) {
  std::vector<T> values(n);
  engine.readTensor(name, values.data(), values.data() + n);
  std::cout << name << ":";
  for (std::size_t i = 0; i < n; ++i)
    std::cout << " " << values[i];
  std::cout << "\n";
}

} // namespace

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  popnn::addCodelets(graph);

  Sequence prog;
  Tensor x = graph.addVariable(FLOAT, {2, 4}, "x");
  Tensor y = graph.addVariable(FLOAT, {2, 4}, "y");
  poputil::mapTensorLinearly(graph, x, 1, 1);
  poputil::mapTensorLinearly(graph, y, 1, 1);
  graph.createHostWrite("x", x);
  graph.createHostWrite("y", y);

  // An output laid out like its inputs, filled in place.
  Tensor sum =
      popops::createOutputForElementWiseOp(graph, {x, y}, FLOAT, "sum");
  prog.add(Copy(x, sum));
  popops::addInPlace(graph, sum, y, prog);
  readBack(graph, sum, "sum");

  // A number as an operand.
  readBack(graph, popops::mul(graph, x, 2.0f, prog), "twice_x");

  // Comparisons give BOOL; logical operations combine them.
  Tensor greater = popops::gt(graph, x, y, prog);
  Tensor atLeast = popops::gteq(graph, x, y, prog);
  Tensor equal = popops::eq(graph, x, y, prog);
  Tensor notGreater = popops::logicalNot(graph, greater, prog);
  Tensor notEqual = popops::neq(graph, x, y, prog);
  Tensor both = popops::logicalAnd(graph, atLeast, notEqual, prog);
  Tensor either = popops::logicalOr(graph, equal, greater, prog);
  readBack(graph, popops::cast(graph, greater, INT, prog), "gt");
  readBack(graph, popops::cast(graph, notGreater, INT, prog), "not_gt");
  readBack(graph, popops::cast(graph, both, UNSIGNED_INT, prog),
           "gteq_and_neq");
  readBack(graph, popops::cast(graph, either, FLOAT, prog), "eq_or_gt");

  // select, clamp and an expression mixing comparisons and logical operators.
  readBack(graph, popops::select(graph, x, y, greater, prog), "max_by_select");
  Tensor lo = graph.addConstant(FLOAT, {}, -1.0f);
  Tensor hi = graph.addConstant(FLOAT, {}, 2.0f);
  graph.setTileMapping(lo, 0);
  graph.setTileMapping(hi, 0);
  readBack(graph, popops::clamp(graph, x, lo, hi, prog), "clamp");
  Tensor bothPositive = popops::map(
      graph, (popops::expr::_1 > 0) && (popops::expr::_2 > 0), {x, y}, prog);
  readBack(graph, popops::cast(graph, bothPositive, INT, prog),
           "both_positive");

  // allTrue over BOOL tensors: a scalar BOOL.
  Tensor zero = graph.addConstant(FLOAT, {1}, 0.0f);
  graph.setTileMapping(zero, 0);
  Tensor allEqOrGt = popops::allTrue(graph, either, prog, "allEqOrGt");
  Tensor absY = popops::abs(graph, y, prog);
  Tensor allNonNegative =
      popops::allTrue(graph, popops::gteq(graph, absY, zero, prog), prog);
  readBack(graph, popops::cast(graph, allEqOrGt, INT, prog), "all_eq_or_gt");
  readBack(graph, popops::cast(graph, allNonNegative, INT, prog),
           "all_abs_y_nonnegative");

  // Casts to BOOL: any non-zero value is true.
  Tensor xAsBool = popops::cast(graph, x, BOOL, prog);
  readBack(graph, popops::cast(graph, xAsBool, INT, prog), "x_as_bool");

  // Rounding and remainder.
  readBack(graph, popops::floor(graph, x, prog), "floor");
  readBack(graph, popops::ceil(graph, x, prog), "ceil");
  Tensor divisor = graph.addConstant(FLOAT, {1}, 2.5f);
  graph.setTileMapping(divisor, 0);
  readBack(graph, popops::rem(graph, x, divisor, prog), "rem");

  // Reductions from popops/Reduce.hpp.
  readBack(graph, popops::reduce(graph, x, {1}, popops::Operation::ADD, prog),
           "row_sum");
  Tensor scale = graph.addConstant(FLOAT, {}, 0.5f);
  graph.setTileMapping(scale, 0);
  Tensor acc = graph.addVariable(FLOAT, {4}, "acc");
  poputil::mapTensorLinearly(graph, acc);
  popops::zero(graph, acc, prog, "zeroAcc");
  const popops::ReduceParams addHalf(popops::Operation::ADD, true, scale);
  popops::reduceWithOutput(graph, x, acc, {0}, addHalf, prog);
  popops::reduceWithOutput(graph, y, acc, {0}, addHalf, prog);
  readBack(graph, acc, "half_col_sums");
  std::vector<ComputeSet> css;
  Tensor rowMax = popops::reduce(graph, x, {1}, popops::Operation::MAX, css);
  Tensor colMin = popops::reduce(graph, y, {0}, popops::Operation::MIN, css);
  for (unsigned i = 0; i < css.size(); ++i)
    prog.add(Execute(css[i]));
  readBack(graph, rowMax, "row_max");
  readBack(graph, colMin, "col_min");

  // calcLoss returning a Program, with an UNSIGNED_INT count of correct rows.
  Tensor probs = graph.addVariable(FLOAT, {2, 4}, "probs");
  Tensor labels = graph.addVariable(UNSIGNED_INT, {2}, "labels");
  Tensor loss = graph.addVariable(FLOAT, {2}, "loss");
  Tensor deltas = graph.addVariable(FLOAT, {2, 4}, "deltas");
  Tensor numCorrect = graph.addVariable(UNSIGNED_INT, {}, "numCorrect");
  poputil::mapTensorLinearly(graph, probs);
  poputil::mapTensorLinearly(graph, labels);
  poputil::mapTensorLinearly(graph, loss);
  poputil::mapTensorLinearly(graph, deltas);
  graph.setTileMapping(numCorrect, 0);
  graph.createHostWrite("probs", probs);
  graph.createHostWrite("labels", labels);
  prog.add(popnn::calcLoss(graph, probs, labels, loss, deltas, numCorrect,
                           popnn::SUM_SQUARED_LOSS, "loss"));
  Tensor oneHot = graph.addVariable(FLOAT, {2, 4}, "oneHot");
  poputil::mapTensorLinearly(graph, oneHot);
  popops::encodeOneHot(graph, labels, oneHot, prog);
  readBack(graph, oneHot, "one_hot");
  Tensor range = graph.addVariable(INT, {5}, "range");
  poputil::mapTensorLinearly(graph, range, 1, 1);
  popops::iota(graph, range, -2, prog);
  readBack(graph, range, "iota");
  readBack(graph, popnn::argMax(graph, probs, prog), "arg_max");
  Tensor accuracy = graph.addVariable(UNSIGNED_INT, {1}, "accuracy");
  graph.setTileMapping(accuracy, 1);
  prog.add(popnn::calcAccuracy(graph, probs, labels, accuracy));
  readBack(graph, accuracy, "accuracy");
  readBack(graph, loss, "loss");
  readBack(graph, deltas, "deltas");
  readBack(graph, numCorrect, "num_correct");

  // Top k over the innermost dimension, each row of x on its own.
  Tensor top = popops::topK(
      graph, prog, x, popops::TopKParams(2, true, popops::SortOrder::DESCENDING),
      "topK");
  readBack(graph, top, "top_2");
  std::pair<Tensor, Tensor> bottom = popops::topKWithPermutation(
      graph, prog, x, popops::TopKParams(3, false, popops::SortOrder::ASCENDING));
  readBack(graph, bottom.first, "bottom_3");
  readBack(graph, bottom.second, "bottom_3_indices");
  std::pair<Tensor, Tensor> keyValue = popops::topKKeyValue(
      graph, prog, x, y, popops::TopKParams(1, true, popops::SortOrder::NONE));
  readBack(graph, keyValue.first, "max_x");
  readBack(graph, keyValue.second, "y_at_max_x");

  Engine engine(graph, prog);
  engine.load(device);
  const float xs[] = {1.5f, -2.0f, 3.0f, 0.25f, -1.0f, 4.0f, 2.5f, -3.5f};
  const float ys[] = {1.0f, 1.0f, -2.0f, 0.25f, 0.0f, 5.0f, 2.0f, -4.0f};
  const float ps[] = {0.5f, 0.25f, 0.125f, 0.125f, 0.25f, 0.25f, 0.5f, 0.0f};
  const unsigned ls[] = {0, 1};
  engine.writeTensor("x", xs, xs + 8);
  engine.writeTensor("y", ys, ys + 8);
  engine.writeTensor("probs", ps, ps + 8);
  engine.writeTensor("labels", ls, ls + 2);
  engine.run(0);

  print<float>(engine, "sum", 8);
  print<float>(engine, "twice_x", 8);
  print<int>(engine, "gt", 8);
  print<int>(engine, "not_gt", 8);
  print<unsigned>(engine, "gteq_and_neq", 8);
  print<float>(engine, "eq_or_gt", 8);
  print<float>(engine, "max_by_select", 8);
  print<float>(engine, "clamp", 8);
  print<int>(engine, "both_positive", 8);
  print<int>(engine, "all_eq_or_gt", 1);
  print<int>(engine, "all_abs_y_nonnegative", 1);
  print<int>(engine, "x_as_bool", 8);
  print<float>(engine, "floor", 8);
  print<float>(engine, "ceil", 8);
  print<float>(engine, "rem", 8);
  print<float>(engine, "row_sum", 2);
  print<float>(engine, "half_col_sums", 4);
  print<float>(engine, "row_max", 2);
  print<float>(engine, "col_min", 4);
  print<float>(engine, "loss", 2);
  print<float>(engine, "deltas", 8);
  print<unsigned>(engine, "num_correct", 1);
  print<float>(engine, "one_hot", 8);
  print<int>(engine, "iota", 5);
  print<unsigned>(engine, "arg_max", 2);
  print<unsigned>(engine, "accuracy", 1);
  print<float>(engine, "top_2", 4);
  print<float>(engine, "bottom_3", 6);
  print<unsigned>(engine, "bottom_3_indices", 6);
  print<float>(engine, "max_x", 2);
  print<float>(engine, "y_at_max_x", 2);
  std::cout << "sort_order: " << popops::SortOrder::DESCENDING << "\n";
  return 0;
}
