// The SDK's documented engine options: accepted with the SDK's value checks, recorded as applying
// or not, and the files target.saveArchive and debug.loweredVarDumpFile write.

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/exceptions.hpp>
#include <sstream>
#include <tilescope/capture/EngineOptionTable.hpp>
#include <tilescope/capture/EngineOptions.hpp>
#include <tilescope/capture/ProfileRecords.hpp>

using namespace poplar;
using namespace poplar::program;
using tilescope::capture::EngineOptions;
using tilescope::capture::OptionKind;
namespace fs = std::filesystem;

namespace {

/// A valid value for an option of the table.
std::string validValue(const tilescope::capture::EngineOptionSpec& spec) {
    switch (spec.kind) {
    case OptionKind::Bool:
        return "true";
    case OptionKind::Unsigned:
        return "3";
    case OptionKind::String:
        return "out.file";
    case OptionKind::Choice: {
        const std::string choices = spec.choices;
        return choices.substr(choices.rfind('|') + 1);
    }
    case OptionKind::UnsignedOrWord:
        return spec.choices;
    }
    return "";
}

const tilescope::report::EngineOption* inForce(const EngineOptions& o, const std::string& name) {
    for (const auto& e : o.inForce)
        if (e.name == name)
            return &e;
    return nullptr;
}

std::string readFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

TEST_CASE("every option of the table is accepted and recorded as applying or not",
          "[engine][options]") {
    const auto& table = tilescope::capture::engineOptionTable();
    CHECK(table.size() >= 50);
    for (const char* name : {"target.saveArchive", "debug.loweredVarDumpFile",
                             "debug.outputAllSymbols", "exchange.streamBufferOverlap",
                             "target.hostSyncTimeout", "streamCallbacks.numWorkerThreads"})
        CHECK(tilescope::capture::findEngineOption(name));
    for (const auto& spec : table) {
        INFO(spec.name);
        CHECK(std::string(spec.reason).size() > 10);
        const auto o = EngineOptions::parse({{spec.name, validValue(spec)}}, nullptr);
        const auto* e = inForce(o, spec.name);
        REQUIRE(e);
        CHECK(e->applies == spec.applies);
        CHECK(e->source == "api");
    }
    CHECK_FALSE(tilescope::capture::findEngineOption("exchange.streamBufferOverlap")->applies);
    CHECK(tilescope::capture::findEngineOption("target.saveArchive")->applies);
}

TEST_CASE("option values are checked as the SDK checks them", "[engine][options]") {
    using tilescope::capture::OptionsError;
    CHECK_NOTHROW(
        EngineOptions::parse({{"exchange.streamBufferOverlap", "hostRearrangeOnly"}}, nullptr));
    CHECK_THROWS_WITH(EngineOptions::parse({{"exchange.streamBufferOverlap", "some"}}, nullptr),
                      Catch::Contains("exchange.streamBufferOverlap") &&
                          Catch::Contains(R"("none", "hostRearrangeOnly" or "any")"));
    CHECK_THROWS_WITH(EngineOptions::parse({{"debug.outputAllSymbols", "yes"}}, nullptr),
                      Catch::Contains(R"("true" or "false")"));
    CHECK_THROWS_WITH(EngineOptions::parse({{"target.hostSyncTimeout", "-1"}}, nullptr),
                      Catch::Contains("non-negative integer"));
    CHECK_NOTHROW(EngineOptions::parse({{"streamCallbacks.maxLookahead", "unlimited"}}, nullptr));
    CHECK_NOTHROW(EngineOptions::parse({{"streamCallbacks.maxLookahead", "4"}}, nullptr));
    CHECK_THROWS_WITH(EngineOptions::parse({{"streamCallbacks.maxLookahead", "lots"}}, nullptr),
                      Catch::Contains(R"(or "unlimited")"));
    CHECK_THROWS_WITH(EngineOptions::parse({{"target.saveArchive", ""}}, nullptr),
                      Catch::Contains("must not be empty"));
    CHECK_THROWS_WITH(
        EngineOptions::parse({{"debug.computeInstrumentationLevel", "chip"}}, nullptr),
        Catch::Contains(R"("vertex", "tile" or "ipu")"));
}

TEST_CASE("an empty POPLAR_ENGINE_OPTIONS is unset while malformed JSON stays an error",
          "[engine][options]") {
    for (const char* blank : {"", " ", "\n\t  "}) {
        const auto o = EngineOptions::parse({{"debug.allowOutOfMemory", "true"}}, blank);
        CHECK(o.allowOutOfMemory);
    }
    CHECK_THROWS_WITH(EngineOptions::parse({}, " {"), Catch::Contains("POPLAR_ENGINE_OPTIONS"));
    CHECK_THROWS_WITH(EngineOptions::parse({}, "x"), Catch::Contains("POPLAR_ENGINE_OPTIONS"));

    Graph g(Target::createIPUTarget(1, 2, "ipu2"));
    setenv("POPLAR_ENGINE_OPTIONS", "", 1);
    CHECK_NOTHROW(Engine(g, Sequence{}));
    setenv("POPLAR_ENGINE_OPTIONS", "{", 1);
    CHECK_THROWS_AS(Engine(g, Sequence{}), invalid_option);
    unsetenv("POPLAR_ENGINE_OPTIONS");
}

TEST_CASE("target.saveArchive and debug.loweredVarDumpFile write files a user can open",
          "[engine][options]") {
    const fs::path dir = fs::temp_directory_path() / "tilescope-engine-option-files";
    fs::remove_all(dir);
    fs::create_directories(dir);
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    Tensor a = g.addVariable(FLOAT, {16}, "a");
    Tensor b = g.addVariable(INT, {3}, "b");
    Tensor c = g.addVariable(FLOAT, {8}, "c");
    g.setTileMapping(a.slice(0, 8), 1);
    g.setTileMapping(a.slice(8, 16), 2);
    g.setTileMapping(b, 1);
    g.setTileMapping(c, 1);
    g.createHostWrite("a", a);
    g.createHostRead("b", b);
    Sequence prog{Copy(a.slice(0, 8), c), WriteUndef(c)};
    const fs::path vars = dir / "vars.json", archive = dir / "archive.a";
    Engine e(
        g, prog,
        {{"debug.loweredVarDumpFile", vars.string()}, {"target.saveArchive", archive.string()}});

    const auto dump = nlohmann::json::parse(readFile(vars));
    CHECK(dump["target"]["numTiles"] == 4);
    std::map<std::string, std::vector<nlohmann::json>> byName;
    for (const auto& v : dump["variables"])
        byName[v["name"].get<std::string>()].push_back(v);
    REQUIRE(byName["a"].size() == 2);
    CHECK(byName["a"][0]["tile"] == 1);
    CHECK(byName["a"][1]["tile"] == 2);
    CHECK(byName["a"][0]["size"] == 32);
    REQUIRE(byName["b"].size() == 1);
    CHECK(byName["b"][0]["size"] == 12);
    CHECK(byName["b"][0]["elementType"] == "int");
    REQUIRE(byName["c"].size() == 1);
    CHECK(byName["c"][0]["category"] == "not-always-live");
    // Parts on one tile do not overlap and lie in the tile's memory.
    const auto bytesPerTile = e.compileRecords().target.bytesPerTile;
    for (const auto* x : {&byName["a"][0], &byName["b"][0], &byName["c"][0]})
        CHECK((*x)["address"].get<std::uint64_t>() + (*x)["size"].get<std::uint64_t>() <=
              bytesPerTile);
    const auto a1 = byName["a"][0]["address"].get<std::uint64_t>();
    const auto b1 = byName["b"][0]["address"].get<std::uint64_t>();
    CHECK((a1 + 32 <= b1 || b1 + 12 <= a1));

    // An ar archive whose members are JSON files.
    const std::string ar = readFile(archive);
    REQUIRE(ar.compare(0, 8, "!<arch>\n") == 0);
    CHECK(ar.find("graph.json/") == 8);
    CHECK(ar.find("memory.json/") != std::string::npos);
    CHECK(ar.find("variables.json/") != std::string::npos);
    const std::size_t size = std::stoul(ar.substr(8 + 48, 10));
    const auto graph = nlohmann::json::parse(ar.substr(8 + 60, size));
    CHECK(graph["target"]["tilesPerIpu"] == 4);
    CHECK(!graph["programs"].empty());

    CHECK_THROWS_WITH(Engine(g, prog, {{"target.saveArchive", (dir / "no/such/dir/a.a").string()}}),
                      Catch::Contains("target.saveArchive") && Catch::Contains("no/such/dir"));
    fs::remove_all(dir);
}
