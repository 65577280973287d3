// Variables, constants, copies and slices, moved between host and device with host read/write
// handles and FIFO streams, printed with PrintTensor. Prints the host-side results last.

#include <exception>
#include <iostream>
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <vector>

using namespace poplar;
using namespace poplar::program;

static int run() {
    // Prefer hardware, fall back to the model as Poplar programs usually do.
    auto manager = DeviceManager::createDeviceManager();
    auto hardware = manager.getDevices(TargetType::IPU, 1);
    Device device = hardware.empty() ? IPUModel().createDevice() : std::move(hardware.front());
    Graph graph(device.getTarget());

    Tensor v1 = graph.addVariable(FLOAT, {4}, "v1");
    Tensor v2 = graph.addVariable(FLOAT, {4}, "v2");
    Tensor v3 = graph.addVariable(FLOAT, {4, 4}, "v3");
    Tensor v4 = graph.addVariable(INT, {10}, "v4");
    for (unsigned i = 0; i < 4; ++i) {
        graph.setTileMapping(v1[i], i);
        graph.setTileMapping(v2[i], i);
        graph.setTileMapping(v3[i], i);
    }
    graph.setTileMapping(v4, 0);

    Tensor c1 = graph.addConstant<float>(FLOAT, {4}, {1.0f, 1.5f, 2.0f, 2.5f});
    graph.setTileMapping(c1, 0);

    Sequence prog;
    prog.add(Copy(c1, v1));
    prog.add(PrintTensor("v1-debug", v1));
    prog.add(Copy(v1, v2));
    prog.add(PrintTensor("v2-debug", v2));

    // Host write handle: fill v3 from the host, then copy slices of it around.
    graph.createHostWrite("v3-write", v3);
    graph.createHostRead("v3-read", v3);
    prog.add(PrintTensor("v3-debug", v3));
    prog.add(Copy(v1, v3.slice({1, 0}, {2, 4}).reshape({4})));
    prog.add(Copy(v3.slice({0, 0}, {2, 2}), v3.slice({2, 2}, {4, 4})));
    prog.add(PrintTensor("v3-debug", v3));

    // FIFO streams: 10 ints in, doubled by nothing but copies, out again.
    DataStream in = graph.addHostToDeviceFIFO("v4-input-stream", INT, 10);
    DataStream out = graph.addDeviceToHostFIFO("v4-output-stream", INT, 10);
    prog.add(Copy(in, v4));
    prog.add(PrintTensor("v4-0", v4));
    prog.add(Copy(in, v4));
    prog.add(PrintTensor("v4-1", v4));
    prog.add(Copy(v4.slice(0, 5), v4.slice(5, 10)));
    prog.add(Copy(v4, out));

    Engine engine(graph, prog);
    engine.load(device);

    std::vector<float> h3(4 * 4);
    for (unsigned i = 0; i < h3.size(); ++i)
        h3[i] = static_cast<float>(i);
    engine.writeTensor("v3-write", h3.data(), h3.data() + h3.size());

    // Two input slots: the stream cycles through them.
    std::vector<int> inputs(20);
    for (int i = 0; i < 20; ++i)
        inputs[static_cast<std::size_t>(i)] = i;
    std::vector<int> outputs(10, -1);
    engine.connectStream("v4-input-stream", inputs.data(), inputs.data() + inputs.size());
    engine.connectStream("v4-output-stream", outputs.data(), outputs.data() + outputs.size());

    engine.run(0);

    engine.readTensor("v3-read", h3.data(), h3.data() + h3.size());
    std::cout << "v3 on host:";
    for (float f : h3)
        std::cout << ' ' << f;
    std::cout << "\nv4 streamed out:";
    for (int i : outputs)
        std::cout << ' ' << i;
    std::cout << '\n';
    return 0;
}

// Bad input (a missing codelet file, an unreadable option) ends with the error's message and status
// 1, not std::terminate.
int main() {
    try {
        return run();
    } catch (const std::exception& e) {
        std::cerr << "tensors_and_streams: " << e.what() << "\n";
        return 1;
    }
}
