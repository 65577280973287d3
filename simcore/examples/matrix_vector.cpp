// y = A x with one DotProduct vertex per row, rows spread over tiles, x on tile 0 (so every other
// tile receives it by exchange). Checks y against a host computation and prints the cycle count.
// Usage: matrix_vector <matvec_codelets.cpp> [rows cols tiles]

#include <cmath>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <random>
#include <vector>

using namespace poplar;
using namespace poplar::program;

static int run(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: " << argv[0] << " <codelet file> [rows cols tiles]\n";
        return 2;
    }
    const unsigned rows = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 16;
    const unsigned cols = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 8;
    const unsigned tiles = argc > 4 ? static_cast<unsigned>(std::atoi(argv[4])) : 4;

    Device device = IPUModel("ipu2").createDevice();
    Graph graph(device.getTarget());
    graph.addCodelets(argv[1]);

    Tensor a = graph.addVariable(FLOAT, {rows, cols}, "a");
    Tensor x = graph.addVariable(FLOAT, {cols}, "x");
    Tensor y = graph.addVariable(FLOAT, {rows}, "y");
    graph.setTileMapping(x, 0);
    ComputeSet cs = graph.addComputeSet("matvec");
    for (unsigned r = 0; r < rows; ++r) {
        const unsigned tile = r * tiles / rows;
        graph.setTileMapping(a[r], tile);
        graph.setTileMapping(y[r], tile);
        VertexRef v = graph.addVertex(cs, "DotProduct", {{"row", a[r]}, {"x", x}, {"y", y[r]}});
        graph.setTileMapping(v, tile);
    }
    graph.createHostWrite("a", a);
    graph.createHostWrite("x", x);
    graph.createHostRead("y", y);

    Engine engine(graph, Execute(cs));
    engine.load(device);

    std::mt19937 rng(rows * 131 + cols);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> hostA(rows * cols), hostX(cols), hostY(rows), expected(rows, 0.0f);
    for (auto& v : hostA)
        v = dist(rng);
    for (auto& v : hostX)
        v = dist(rng);
    for (unsigned r = 0; r < rows; ++r)
        for (unsigned c = 0; c < cols; ++c)
            expected[r] += hostA[r * cols + c] * hostX[c];

    engine.writeTensor("a", hostA.data(), hostA.data() + hostA.size());
    engine.writeTensor("x", hostX.data(), hostX.data() + hostX.size());
    engine.run(0);
    engine.readTensor("y", hostY.data(), hostY.data() + hostY.size());

    double maxError = 0;
    for (unsigned r = 0; r < rows; ++r)
        maxError = std::max(maxError, static_cast<double>(std::fabs(hostY[r] - expected[r])));
    const bool ok = maxError <= 1e-5 * cols;
    std::cout << "matrix-vector " << rows << "x" << cols << " on " << tiles
              << " tiles: max abs error " << maxError << (ok ? " OK" : " FAILED") << '\n';
    engine.printProfileSummary(std::cout, {{"showExecutionSteps", "true"}});
    return ok ? 0 : 1;
}

// Bad input (a missing codelet file, an unreadable option) ends with the error's message and status
// 1, not std::terminate.
int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "matrix_vector: " << e.what() << "\n";
        return 1;
    }
}
