// compileGraph, Executable::serialize/deserialize, Engine(Executable&&), in one process and
// across processes, and Graph::serialize / outputVertexGraph / outputComputeGraph.

#include "ExecutableTestGraph.hpp"
#include "TestSupport.hpp"
#include "tilescope/capture/ProfileRecords.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tilescope/capture/ProfileRecords.hpp>

using namespace poplar;
namespace fs = std::filesystem;

namespace {

const std::string kExpected = "out: 3.5 7 11.5 17 23.5 31 39.5 49\n"
                              "sum: 182\n"
                              "scaled: 2 5 8 11\n"
                              "scaled after program 1: 29 59 89 119\n";

std::string codelets() {
    return simtest::testCodelet("test_codelets.cpp");
}

std::string serialized() {
    auto b = exectest::buildGraph(codelets());
    std::ostringstream out;
    compileGraph(b.graph, b.programs).serialize(out);
    return out.str();
}

std::string deserializeError(const std::string& bytes) {
    std::istringstream in(bytes);
    try {
        Executable::deserialize(in);
    } catch (const poplar_error& e) {
        return e.what();
    }
    return "no error";
}

std::uint64_t totalCycles(const Engine& e) {
    std::uint64_t sum = 0;
    for (const auto& s : e.compileRecords().steps)
        for (auto c : s.estimatedCyclesPerTile)
            sum += c;
    return sum;
}

} // namespace

TEST_CASE("a direct Engine gives the expected results", "[executable]") {
    auto b = exectest::buildGraph(codelets());
    Engine engine(b.graph, b.programs);
    CHECK(exectest::runAndPrint(engine) == kExpected);
}

TEST_CASE("compileGraph and a deserialised executable run like a direct Engine", "[executable]") {
    auto b = exectest::buildGraph(codelets());
    Engine direct(b.graph, b.programs);
    Executable exe = compileGraph(b.graph, b.programs);
    std::stringstream file;
    exe.serialize(file);
    // The executable is independent of the graph: changing the graph afterwards is not seen.
    b.graph.addVariable(FLOAT, {1000}, "late");

    Engine compiled(std::move(exe));
    CHECK(exectest::runAndPrint(compiled) == kExpected);
    const std::string bytes = file.str();
    Engine loaded(Executable::deserialize(file));
    CHECK(exectest::runAndPrint(loaded) == kExpected);
    // A deserialised executable serialises again (its codelets now come from the stored copy).
    std::istringstream again(bytes);
    std::stringstream second;
    Executable::deserialize(again).serialize(second);
    Engine reloaded(Executable::deserialize(second));
    CHECK(exectest::runAndPrint(reloaded) == kExpected);
    // Same lowering and estimates: the perf estimator was stored as per-vertex estimates.
    CHECK(loaded.compileRecords().steps.size() == direct.compileRecords().steps.size());
    CHECK(totalCycles(loaded) == totalCycles(direct));
    CHECK(loaded.compileRecords().memory.tileTotal(0) ==
          direct.compileRecords().memory.tileTotal(0));
}

TEST_CASE("an executable runs in another process without the codelet source or a compiler",
          "[executable]") {
    const fs::path dir = fs::temp_directory_path() / ("tilescope-exec-" + std::to_string(getpid()));
    fs::create_directories(dir);
    const std::string exe = (dir / "graph.poplar_exec").string();
    const std::string runner = EXECUTABLE_RUNNER;
    auto saved = simtest::run(simtest::quoted(runner) + " save " + simtest::quoted(codelets()) +
                              " " + simtest::quoted(exe));
    REQUIRE(saved.status == 0);
    // A fresh codelet cache and a compiler that always fails: loading must compile nothing.
    const std::string env = "TILESCOPE_CODELET_CACHE=" + simtest::quoted((dir / "cache").string()) +
                            " TILESCOPE_CODELET_CXX=false ";
    auto loaded = simtest::run(env + simtest::quoted(runner) + " load " + simtest::quoted(exe));
    INFO(loaded.output);
    CHECK(loaded.status == 0);
    CHECK(loaded.output == kExpected);
    // A process linking libpoplar only loads the PopLibs libraries for their built-in vertices.
    auto bare = simtest::run(env + simtest::quoted(EXECUTABLE_LOADER) + " " + simtest::quoted(exe));
    INFO(bare.output);
    CHECK(bare.status == 0);
    CHECK(bare.output == kExpected);
    CHECK(simtest::run("ldd " + simtest::quoted(EXECUTABLE_LOADER)).output.find("libpopops") ==
          std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("truncated, corrupt and foreign executables are refused with a clear error",
          "[executable]") {
    const std::string good = serialized();
    REQUIRE(good.size() > 100);
    CHECK_THAT(deserializeError(""),
               Catch::Contains("not a TileScope executable") && Catch::Contains("empty"));
    CHECK_THAT(deserializeError("#include <poplar/Graph.hpp>\nint main() {}\n"),
               Catch::Contains("not a TileScope executable"));
    for (std::size_t n : {std::size_t(8), std::size_t(12), std::size_t(20), std::size_t(32),
                          good.size() / 2, good.size() - 1})
        CHECK_THAT(deserializeError(good.substr(0, n)), Catch::Contains("truncated"));
    std::string flipped = good;
    flipped[good.size() / 2] ^= 0x5a;
    CHECK_THAT(deserializeError(flipped), Catch::Contains("checksum"));
    std::string newer = good;
    newer[8] = 99; // the format version
    CHECK_THAT(deserializeError(newer), Catch::Contains("format version 99"));
}

TEST_CASE("damaged executables with a matching checksum are refused, never a crash",
          "[executable]") {
    // Mutations outside the stored codelet library (a shared object is native code and trusted
    // as such), with the checksum recomputed so the reader's own checks are what is tested.
    const std::string good = serialized();
    const std::size_t elf = good.find("\x7f"
                                      "ELF");
    REQUIRE(elf != std::string::npos);
    std::uint64_t elfSize = 0;
    for (int i = 0; i < 8; ++i)
        elfSize |= std::uint64_t(static_cast<unsigned char>(good[elf - 8 + i])) << (8 * i);
    std::uint32_t seed = 12345;
    auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
    int refused = 0;
    for (int iteration = 0; iteration < 150; ++iteration) {
        std::string bad = good;
        for (int k = 0; k < 3; ++k) {
            const std::size_t pos = 32 + next() % (bad.size() - 32);
            if (pos + 8 >= elf && pos < elf + elfSize)
                continue;
            bad[pos] = static_cast<char>(next() >> 24);
        }
        std::uint64_t h = 1469598103934665603ull;
        for (std::size_t i = 32; i < bad.size(); ++i) {
            h ^= static_cast<unsigned char>(bad[i]);
            h *= 1099511628211ull;
        }
        for (int i = 0; i < 8; ++i)
            bad[24 + i] = static_cast<char>((h >> (8 * i)) & 0xff);
        std::istringstream in(bad);
        try {
            Engine e(Executable::deserialize(in));
        } catch (const poplar_error&) {
            ++refused;
        }
    }
    CHECK(refused > 100); // most damage is detected; the rest changed only names or values
}

TEST_CASE("Engine from an executable: empty executables and options", "[executable]") {
    CHECK_THROWS_AS(Engine(Executable()), poplar_error);
    auto b = exectest::buildGraph(codelets());
    Executable exe = compileGraph(b.graph, b.programs);
    Executable moved = std::move(exe);
    CHECK_THROWS_WITH(Engine(std::move(exe)), Catch::Contains("empty"));
    // Unknown options are still refused; compile-time options are ignored here.
    CHECK_THROWS_AS(Engine(compileGraph(b.graph, b.programs), {{"no.such.option", "1"}}),
                    invalid_option);
    Engine e(std::move(moved), {{"debug.instrument", "true"}, {"opt.maxCopyMergeSize", "1"}});
    CHECK(exectest::runAndPrint(e) == kExpected);
    CHECK_THROWS_AS(compileGraph(b.graph, b.programs, {{"no.such.option", "1"}}), invalid_option);
    CHECK_THROWS_AS(compileGraph(b.graph, {}), poplar_error);
}

TEST_CASE("an Engine from a deserialised executable writes autoReport profiles", "[executable]") {
    const fs::path dir =
        fs::temp_directory_path() / ("tilescope-exec-report-" + std::to_string(getpid()));
    fs::remove_all(dir);
    std::stringstream file;
    {
        // With a Graph::addFunction called twice: the function is in the report once.
        auto b = exectest::buildGraph(codelets());
        compileGraph(b.graph, b.programs).serialize(file);
    }
    Engine e(Executable::deserialize(file),
             {{"autoReport.all", "true"}, {"autoReport.directory", dir.string()}});
    CHECK(exectest::runAndPrint(e) == kExpected);
    CHECK(fs::exists(dir / "profile.pop"));
    CHECK(e.executionRecords().runs.size() == 2);
    fs::remove_all(dir);
}

TEST_CASE("compileGraph raises the Engine's out-of-memory error", "[executable]") {
    Graph g(Target::createIPUTarget(1, 2, "ipu2"));
    Tensor big = g.addVariable(FLOAT, {400000}, "big");
    Tensor small = g.addVariable(FLOAT, {4}, "small");
    g.setTileMapping(big, 0);
    g.setTileMapping(small, 1);
    program::Sequence prog({program::Copy(big.slice(0, 4), small)});
    CHECK_THROWS_AS(compileGraph(g, {prog}), graph_memory_allocation_error);
    CHECK_NOTHROW(compileGraph(g, {prog}, {{"debug.allowOutOfMemory", "true"}}));
}

TEST_CASE("Graph::serialize writes JSON and a binary graph that loads as an executable",
          "[executable]") {
    auto b = exectest::buildGraph(codelets());
    std::ostringstream json;
    b.graph.serialize(json, b.programs, SerializationFormat::JSON);
    const auto j = nlohmann::json::parse(json.str());
    bool sawX = false;
    for (const auto& v : j["variables"])
        if (v["name"] == "x") {
            sawX = true;
            CHECK(v["type"] == "float");
            CHECK(v["shape"] == nlohmann::json::array({8}));
            // [tile, begin, end] runs covering all 8 elements
            REQUIRE(!v["tileMapping"].empty());
            CHECK(v["tileMapping"][0][1] == 0);
            CHECK(v["tileMapping"].back()[2] == 8);
        }
    CHECK(sawX);
    CHECK(j["vertices"][0]["type"] == "AddOne");
    CHECK(j["vertices"][0]["fields"][0]["name"] == "data");
    CHECK(j["vertices"][0]["fields"][0]["connections"][0]["elements"][0]["variable"] == "x");
    CHECK(j["computeSets"][0]["name"] == "addOne");
    CHECK(j["programs"].size() == 2);

    std::stringstream binary;
    b.graph.serialize(binary, b.programs, SerializationFormat::Binary);
    Engine e(Executable::deserialize(binary));
    CHECK(exectest::runAndPrint(e) == kExpected);
}

TEST_CASE("outputVertexGraph and outputComputeGraph write Graphviz DOT", "[executable]") {
    auto b = exectest::buildGraph(codelets());
    std::ostringstream vertexGraph, computeGraph;
    b.graph.outputVertexGraph(vertexGraph, b.programs);
    b.graph.outputComputeGraph(computeGraph, b.programs);
    CHECK(vertexGraph.str().rfind("digraph vertexGraph {", 0) == 0);
    CHECK_THAT(vertexGraph.str(), Catch::Contains("label=\"AddOne\\ntile 1\"") &&
                                      Catch::Contains("subgraph cluster_cs0") &&
                                      Catch::Contains("-> x0 [label=\"data\"]"));
    CHECK(computeGraph.str().rfind("digraph computeGraph {", 0) == 0);
    CHECK_THAT(computeGraph.str(), Catch::Contains("\"addOne\\n2 vertices\"") &&
                                       Catch::Contains("cluster_programs") &&
                                       Catch::Contains("[style=dashed]"));
    CHECK(vertexGraph.str().back() == '\n');
}
