// Two chained matrix products with poplin: E = (A x B) x D on FLOAT matrices of a few hundred
// rows, the inputs mapped linearly over the tiles (so the planner's exchanges are visible in a
// profile). Small integer inputs make the result exact; it is compared with the host's.
//
//   matmul_chain [TILES] [M] [K] [N] [P]   (default 64 300 200 250 100: A is MxK, B KxN, D NxP)
//
// Prints one JSON line; exit status 1 if any element differs.

#include <cstdlib>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <tilescope/capture/ProfileRecords.hpp> // Engine::executionRecords()
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

std::vector<float> smallIntegers(std::size_t n, unsigned seed) {
    std::vector<float> v(n);
    std::uint32_t s = seed;
    for (auto& x : v) {
        s = s * 1664525u + 1013904223u;
        x = float(int((s >> 16) % 5) - 2); // -2..2
    }
    return v;
}

std::vector<double> hostProduct(const std::vector<double>& a, const std::vector<float>& b,
                                std::size_t m, std::size_t k, std::size_t n) {
    std::vector<double> c(m * n, 0.0);
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < k; ++j)
            for (std::size_t l = 0; l < n; ++l)
                c[i * n + l] += a[i * k + j] * b[j * n + l];
    return c;
}

} // namespace

int main(int argc, char** argv) {
    auto arg = [&](int i, std::size_t fallback) {
        return argc > i ? static_cast<std::size_t>(std::atol(argv[i])) : fallback;
    };
    const unsigned tiles = static_cast<unsigned>(arg(1, 64));
    const std::size_t M = arg(2, 300), K = arg(3, 200), N = arg(4, 250), P = arg(5, 100);
    try {
        IPUModel model("ipu2");
        model.tilesPerIPU = tiles;
        Device device = model.createDevice();
        Graph graph(device.getTarget());
        poplin::addCodelets(graph);

        Tensor a = graph.addVariable(FLOAT, {M, K}, "A");
        Tensor b = graph.addVariable(FLOAT, {K, N}, "B");
        Tensor d = graph.addVariable(FLOAT, {N, P}, "D");
        for (const Tensor& t : {a, b, d})
            poputil::mapTensorLinearly(graph, t);
        graph.createHostWrite("A", a);
        graph.createHostWrite("B", b);
        graph.createHostWrite("D", d);

        Sequence prog;
        Tensor c = poplin::matMul(graph, a, b, prog, "first");
        Tensor e = poplin::matMul(graph, c, d, prog, "second");
        graph.createHostRead("E", e);

        const auto av = smallIntegers(M * K, 1), bv = smallIntegers(K * N, 2),
                   dv = smallIntegers(N * P, 3);
        Engine engine(graph, prog);
        engine.load(device);
        engine.writeTensor("A", av.data(), av.data() + av.size());
        engine.writeTensor("B", bv.data(), bv.data() + bv.size());
        engine.writeTensor("D", dv.data(), dv.data() + dv.size());
        engine.run(0);
        std::vector<float> ev(M * P);
        engine.readTensor("E", ev.data(), ev.data() + ev.size());

        const std::vector<double> ad(av.begin(), av.end());
        const auto want = hostProduct(hostProduct(ad, bv, M, K, N), dv, M, N, P);
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < want.size(); ++i)
            wrong += double(ev[i]) != want[i];
        const auto& runs = engine.executionRecords().runs;
        std::cout << "{\"example\":\"matmul_chain\",\"shape\":[" << M << "," << K << "," << N << ","
                  << P << "],\"tiles\":" << tiles
                  << ",\"cycles\":" << (runs.empty() ? 0 : runs.back().totalCycles)
                  << ",\"wrong_elements\":" << wrong << "}\n";
        return wrong == 0 ? 0 : 1;
    } catch (const poplar_error& e) {
        std::cerr << "matmul_chain: " << e.what() << "\n";
        return 1;
    }
}
