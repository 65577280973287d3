// Keeps rows of a table in a remote buffer: the host fills it, the device loads the row an
// offset tensor selects, transforms it and stores it into another row; the host reads the
// table back. Also copies a {3} tensor into a {1,3} one, which Poplar allows.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <iostream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

void printRow(const char *title, const std::vector<float> &row) {
  std::cout << title;
  for (float x : row)
    std::cout << " " << x;
  std::cout << "\n";
}

} // namespace

int main() {
  const unsigned rowSize = 4, rows = 3;
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());

  RemoteBuffer table = graph.addRemoteBuffer("table", FLOAT, rowSize, rows);
  std::cout << "buffer " << table.handle() << " " << table.numElements() << "x"
            << table.getRepeats() << " " << table.elementType() << "\n";

  Tensor row = graph.addVariable(FLOAT, {rowSize}, "row");
  Tensor pair = graph.addVariable(FLOAT, {2, rowSize}, "pair");
  Tensor from = graph.addVariable(UNSIGNED_INT, {}, "from");
  Tensor to = graph.addVariable(UNSIGNED_INT, {}, "to");
  Tensor both = graph.addVariable(UNSIGNED_INT, {2}, "both");
  graph.setTileMapping(row, 0);
  graph.setTileMapping(pair, 1);
  graph.setTileMapping(from, 0);
  graph.setTileMapping(to, 0);
  graph.setTileMapping(both, 1);
  graph.setInitialValue(from, 0u);
  graph.setInitialValue(to, 2u);
  graph.setInitialValue(both, ArrayRef<unsigned>({2, 0}));

  // Row `to` = reverse of row `from`; then rows 2 and 0 are loaded together into `pair`.
  Sequence prog;
  prog.add(Copy(table, row, from));
  prog.add(Copy(row.reverse(0), row));
  prog.add(Copy(row, table, to));
  prog.add(Copy(table, pair, both));
  graph.createHostRead("pair", pair);

  // A copy between shapes {3} and {1,3}.
  Tensor flat = graph.addVariable(FLOAT, {3}, "flat");
  Tensor wide = graph.addVariable(FLOAT, {1, 3}, "wide");
  graph.setTileMapping(flat, 2);
  graph.setTileMapping(wide, 3);
  graph.setInitialValue(flat, ArrayRef<float>({0.5f, 1.5f, 2.5f}));
  prog.add(Copy(flat, wide));
  graph.createHostRead("wide", wide);

  Engine engine(graph, prog);
  engine.load(device);
  for (unsigned r = 0; r < rows; ++r) {
    std::vector<float> values(rowSize);
    for (unsigned i = 0; i < rowSize; ++i)
      values[i] = static_cast<float>(10 * r + i);
    engine.copyToRemoteBuffer(values.data(), "table", r);
  }
  engine.run(0);

  for (unsigned r = 0; r < rows; ++r) {
    std::vector<float> values(rowSize);
    engine.copyFromRemoteBuffer("table", values.data(), r);
    printRow(r == 0 ? "row 0" : r == 1 ? "row 1" : "row 2", values);
  }
  std::vector<float> loaded(2 * rowSize);
  engine.readTensor("pair", loaded.data(), loaded.data() + loaded.size());
  printRow("pair", loaded);
  std::vector<float> w(3);
  engine.readTensor("wide", w.data(), w.data() + w.size());
  printRow("wide", w);

  try {
    std::vector<float> values(rowSize);
    engine.copyFromRemoteBuffer("table", values.data(), rows);
    std::cout << "no error for a repeat out of range\n";
  } catch (const poplar::poplar_error &e) {
    std::cout << "repeat " << rows << " out of range: " << e.type << "\n";
  }
  return 0;
}
