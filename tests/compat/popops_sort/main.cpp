// Sorts with popops/Sort.hpp as SDK programs do: a copy sorted along either dimension of a
// matrix, an in-place sort of a streamed INT vector, and key-value sorts (ties among the keys
// keep their order). Prints every result for check.sh to compare with expected.txt.

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/Sort.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <iostream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

template <typename T>
void print(Engine &engine, const std::string &name, std::size_t n) {
  std::vector<T> values(n);
  engine.readTensor(name, values.data(), values.data() + n);
  std::cout << name << ":";
  for (const T &v : values)
    std::cout << " " << v;
  std::cout << "\n";
}

} // namespace

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  Sequence prog;

  // A 3x4 matrix sorted along its rows (dim 1) and along its columns (dim 0).
  Tensor m = graph.addVariable(FLOAT, {3, 4}, "m");
  poputil::mapTensorLinearly(graph, m);
  graph.createHostWrite("m", m);
  graph.createHostRead("rows_sorted", popops::sort(graph, m, 1, prog, "byRow"));
  graph.createHostRead("columns_sorted", popops::sort(graph, m, 0, prog));

  // An INT vector streamed in and sorted where it lives.
  Tensor v = graph.addVariable(INT, {6}, "v");
  poputil::mapTensorLinearly(graph, v);
  DataStream in = graph.addHostToDeviceFIFO("v_in", INT, 6);
  Sequence sortStreamed;
  sortStreamed.add(Copy(in, v));
  popops::sortInPlace(graph, v, 0, sortStreamed, "sortV");
  graph.createHostRead("v", v);

  // Keys with ties and the values they carry.
  Tensor keys = graph.addVariable(UNSIGNED_INT, {2, 5}, "keys");
  Tensor values = graph.addVariable(FLOAT, {2, 5}, "values");
  poputil::mapTensorLinearly(graph, keys);
  poputil::mapTensorLinearly(graph, values);
  graph.createHostWrite("keys", keys);
  graph.createHostWrite("values", values);
  graph.createHostRead("values_by_key",
                       popops::sortKeyValue(graph, keys, values, 1, prog));
  popops::sortKeyValueInPlace(graph, keys, values, 1, prog);
  graph.createHostRead("keys", keys);
  graph.createHostRead("values", values);

  Engine engine(graph, {prog, sortStreamed});
  engine.load(device);
  const std::vector<float> hm = {3.5f, -1, 2, 0, 9, 8, -7, 6, 0.25f, 4, 4, -2};
  const std::vector<unsigned> hk = {3, 1, 3, 0, 1, 2, 2, 2, 1, 0};
  const std::vector<float> hv = {0, 1, 2, 3, 4, 10, 11, 12, 13, 14};
  std::vector<int> hvIn = {5, -3, 12, 0, -3, 7};
  engine.writeTensor("m", hm.data(), hm.data() + hm.size());
  engine.writeTensor("keys", hk.data(), hk.data() + hk.size());
  engine.writeTensor("values", hv.data(), hv.data() + hv.size());
  engine.connectStream("v_in", hvIn.data(), hvIn.data() + hvIn.size());
  engine.run(0);
  engine.run(1);

  print<float>(engine, "rows_sorted", 12);
  print<float>(engine, "columns_sorted", 12);
  print<int>(engine, "v", 6);
  print<float>(engine, "values_by_key", 10);
  print<unsigned>(engine, "keys", 10);
  print<float>(engine, "values", 10);

  // A dimension the tensor does not have is refused, naming it.
  try {
    popops::sort(graph, m, 2, prog);
    std::cout << "dim 2: accepted\n";
  } catch (const std::exception &e) {
    std::cout << "dim 2: " << e.what() << "\n";
  }
  return 0;
}
