// A small program whose variants make each change the Insights view recommends, so that a test
// can compare the view's estimated savings with what a recompiled report measures
// (test_gui_insights_recompiled.cpp). It only compiles (autoReport writes the compile profile
// when the engine is built); nothing is run.
//
//   insights_variant [--batch N] [--half] [--spread] [--amp P] [--recompute]
//
// The program: a table mapped on tile 0 alone (the fullest tile, unless --spread maps it over all
// tiles), x [batch, 64] and an activation `act` = 2x made at the start and used at the end (so it
// is live throughout, unless --recompute makes it just before its use), a matMul of x by W
// [64, 96] (poplin's availableMemoryProportion --amp, default 0.6), the table added to its rows
// and the product added to act's, all in FLOAT unless --half.

#include <cstdlib>
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <string>

using namespace poplar;
using namespace poplar::program;

namespace {

constexpr std::size_t kFeatures = 64, kOutputs = 96, kTableRows = 24;
constexpr unsigned kTiles = 16;

int usage(const std::string& why) {
    std::cerr << "insights_variant: " << why
              << "\nusage: insights_variant [--batch N] [--half] [--spread] [--amp P] "
                 "[--recompute]\n";
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    std::size_t batch = 32;
    bool half = false, spread = false, recompute = false;
    std::string amp = "0.6";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--half")
            half = true;
        else if (a == "--spread")
            spread = true;
        else if (a == "--recompute")
            recompute = true;
        else if ((a == "--batch" || a == "--amp") && i + 1 < argc) {
            const std::string v = argv[++i];
            char* end = nullptr;
            if (a == "--batch") {
                const long n = std::strtol(v.c_str(), &end, 10);
                if (*end != '\0' || n <= 0)
                    return usage("--batch needs a positive integer, not '" + v + "'");
                batch = std::size_t(n);
            } else {
                const double p = std::strtod(v.c_str(), &end);
                if (*end != '\0' || p <= 0 || p > 1)
                    return usage("--amp needs a proportion in (0, 1], not '" + v + "'");
                amp = v;
            }
        } else
            return usage("unknown argument '" + a + "'");
    }

    IPUModel model("ipu2");
    model.tilesPerIPU = kTiles;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    popops::addCodelets(graph);
    poplin::addCodelets(graph);
    const Type type = half ? HALF : FLOAT;

    Tensor table = graph.addVariable(type, {kTableRows, kOutputs}, "table");
    if (spread)
        poputil::mapTensorLinearly(graph, table);
    else
        graph.setTileMapping(table, 0);
    Tensor x = graph.addVariable(type, {batch, kFeatures}, "x");
    poputil::mapTensorLinearly(graph, x);
    const OptionFlags options{{"availableMemoryProportion", amp}};
    Tensor w = poplin::createMatMulInputRHS(graph, type, {batch, kFeatures}, {kFeatures, kOutputs},
                                            "W", options);

    Sequence prog;
    Tensor act;
    if (!recompute)
        act = popops::mul(graph, x, 2.0f, prog, "act");
    Tensor h = poplin::matMul(graph, x, w, prog, "dense", options);
    // Every row of h gets the table's first row; the table's rows summed into h's first ones.
    popops::addInPlace(graph, h.slice(0, 1, 0), table.slice(0, 1, 0), prog, "bias");
    for (std::size_t r = 0; r < kTableRows && r < batch; ++r)
        popops::addInPlace(graph, h.slice(r, r + 1, 0), table.slice(r, r + 1, 0), prog, "rows");
    if (recompute)
        act = popops::mul(graph, x, 2.0f, prog, "act");
    Tensor out = popops::add(graph, h.slice(0, kFeatures < kOutputs ? kFeatures : kOutputs, 1), act,
                             prog, "out");
    Tensor result = graph.addVariable(type, out.shape(), "result");
    graph.setTileMapping(result, graph.getTileMapping(out));
    prog.add(Copy(out, result));
    graph.createHostRead("result", result);
    graph.createHostWrite("x", x);
    graph.createHostWrite("table", table);
    graph.createHostWrite("W", w);
    Engine engine(graph, prog);
    std::cout << "compiled\n";
    return 0;
}
