// Codelets as the Poplar SDK compiles them: compile flags, the IPU compiler's macros, codelet-side
// headers, SupervisorVertex, private fields, template instantiations, single-file programs and
// popc's codelet objects.

#include "TestSupport.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poputil/VertexTemplates.hpp>
#include <tilescope/sim/CostModel.hpp>
#include <tilescope/sim/GraphModel.hpp>

using namespace poplar;
using namespace poplar::program;
using namespace simtest;
namespace fs = std::filesystem;

namespace {

std::string featureFlags(const std::string& extra = "") {
    return "-O3 -g -I " + testCodelet("include") + " -DFILL_OFFSET=3 " + extra;
}

std::vector<std::string> typeNames(const Graph& g) {
    return g.model()->vertexTypes.names();
}

bool hasType(const Graph& g, const std::string& name) {
    const auto names = typeNames(g);
    return std::find(names.begin(), names.end(), name) != names.end();
}

/// The 1-based line of a test codelet file on which `text` first appears.
int lineOf(const std::string& codelet, const std::string& text) {
    std::ifstream in(testCodelet(codelet));
    int n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        if (line.find(text) != std::string::npos)
            return n;
    }
    return -1;
}

fs::path scratch(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("tilescope-codelet-sdk-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

} // namespace

TEST_CASE("codelets register private fields, supervisors and template instantiations",
          "[codelets][sdk]") {
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    g.addCodelets(testCodelet("sdk_features.cpp"), CodeletFileType::Auto, featureFlags());
    CHECK(typeNames(g) == std::vector<std::string>{"CountRuns", "Fill<float>", "Fill<unsigned int>",
                                                   "maths::RootAbs"});
    // The names poputil::templateVertex makes find the instantiations.
    CHECK(hasType(g, poputil::templateVertex("Fill", FLOAT)));
    CHECK(hasType(g, poputil::templateVertex("Fill", UNSIGNED_INT)));
    const auto& types = g.model()->vertexTypes;
    const auto& count = types.at(static_cast<std::uint32_t>(types.find("CountRuns")));
    CHECK(count.info.isSupervisor);
    CHECK_FALSE(count.info.isMultiVertex);
    REQUIRE(count.fields.size() == 1);
    CHECK(count.fields[0].name == "runs");
    const auto& root = types.at(static_cast<std::uint32_t>(types.find("maths::RootAbs")));
    REQUIRE(root.fields.size() == 2);
    CHECK(root.fields[1].name == "out");
}

TEST_CASE("codelet compile flags are honoured and unsupported ones refused", "[codelets][sdk]") {
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    // Without -DFILL_OFFSET the file's #error fires, named with the user's file and line.
    try {
        g.addCodelets(testCodelet("sdk_features.cpp"), CodeletFileType::Auto,
                      "-I " + testCodelet("include"));
        FAIL("the #error did not fire");
    } catch (const graph_program_compilation_error& e) {
        const std::string what = e.what();
        CHECK(what.find("sdk_features.cpp:" +
                        std::to_string(lineOf("sdk_features.cpp", "#error \"the test passes"))) !=
              std::string::npos);
        CHECK(what.find("FILL_OFFSET") != std::string::npos);
        CHECK(what.find(".cpp.tmp") == std::string::npos);
    }
    CHECK_THROWS_AS(g.addCodelets(testCodelet("sdk_features.cpp"), CodeletFileType::Auto,
                                  featureFlags("-fno-exceptions")),
                    graph_program_compilation_error);
    CHECK_THROWS_WITH(g.addCodelets(testCodelet("sdk_features.cpp"), CodeletFileType::Auto,
                                    featureFlags("-fno-exceptions")),
                      Catch::Contains("'-fno-exceptions'"));
    CHECK_THROWS_WITH(
        g.addCodelets(testCodelet("sdk_features.cpp"), CodeletFileType::Auto, "-D 3bad"),
        Catch::Contains("-D3bad"));
    CHECK_THROWS_WITH(g.addCodelets(testCodelet("sdk_features.cpp"), CodeletFileType::AsmSource),
                      Catch::Contains("only C++ codelet sources"));
    // A relative -I resolves against the working directory, and the list form takes flags too.
    const std::string relative = fs::relative(testCodelet("include"), fs::current_path()).string();
    Graph g2(Target::createIPUTarget(1, 4, "ipu2"));
    g2.addCodelets(std::vector<std::string>{testCodelet("sdk_features.cpp")},
                   "-I " + relative + " -DFILL_OFFSET=3");
    CHECK(hasType(g2, "Fill<float>"));
}

TEST_CASE("SDK-style codelets run: supervisor, templates, operator->, half4 maths, arch macro",
          "[codelets][sdk][engine]") {
    for (const char* arch : {"ipu2", "ipu1"}) {
        DYNAMIC_SECTION(arch) {
            Device device = IPUModel(arch).createDevice();
            Graph g(device.getTarget());
            g.addCodelets(testCodelet("sdk_features.cpp"), CodeletFileType::Auto, featureFlags());
            Tensor runs = g.addVariable(UNSIGNED_INT, {}, "runs");
            Tensor f = g.addVariable(FLOAT, {3}, "f");
            Tensor u = g.addVariable(UNSIGNED_INT, {2}, "u");
            Tensor in = g.addVariable(HALF, {8}, "in");
            Tensor out = g.addVariable(HALF, {8}, "out");
            for (const auto& t : {runs, f, u, in, out})
                g.setTileMapping(t, 0);
            g.setInitialValue(runs, 0u);
            ComputeSet cs = g.addComputeSet("cs");
            g.setTileMapping(g.addVertex(cs, "CountRuns", {{"runs", runs}}), 0);
            VertexRef vf = g.addVertex(cs, poputil::templateVertex("Fill", FLOAT), {{"out", f}});
            g.setInitialValue(vf["value"], 2.0f);
            g.setTileMapping(vf, 1);
            VertexRef vu =
                g.addVertex(cs, poputil::templateVertex("Fill", UNSIGNED_INT), {{"out", u}});
            g.setInitialValue(vu["value"], 5u);
            g.setTileMapping(vu, 2);
            g.setTileMapping(g.addVertex(cs, "maths::RootAbs", {{"in", in}, {"out", out}}), 3);
            g.createHostWrite("in", in);
            g.createHostRead("runs", runs);
            g.createHostRead("f", f);
            g.createHostRead("u", u);
            g.createHostRead("out", out);
            Engine e(g, Repeat(3, Execute(cs)));
            e.load(device);
            const std::vector<float> host = {-4, 9, -16, 0, 1, -1, 0.25f, 100};
            std::vector<half> hostHalf(host.begin(), host.end());
            e.writeTensor("in", hostHalf.data(), hostHalf.data() + 8);
            e.run();
            unsigned r = 0;
            e.readTensor("runs", &r, &r + 1);
            CHECK(r == 3);
            const float archVersion = std::string(arch) == "ipu2" ? 2.0f : 1.0f;
            std::vector<float> fr(3);
            e.readTensor("f", fr.data(), fr.data() + 3);
            CHECK(fr == std::vector<float>(3, 2 * 10 + 3 + archVersion));
            std::vector<unsigned> ur(2);
            e.readTensor("u", ur.data(), ur.data() + 2);
            CHECK(ur == std::vector<unsigned>(2, 5 * 10 + 3 + static_cast<unsigned>(archVersion)));
            std::vector<half> o(8);
            e.readTensor("out", o.data(), o.data() + 8);
            const std::vector<float> expected = {6, 12, 20, 0, 2, 2, 0.75f, 110};
            for (std::size_t i = 0; i < 8; ++i)
                CHECK(float(o[i]) == expected[i]);
        }
    }
}

TEST_CASE("a supervisor vertex occupies every worker context of its tile",
          "[codelets][sdk][cycles]") {
    const tilescope::sim::CostModel costs;
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    g.addCodelets(testCodelet("sdk_features.cpp"), CodeletFileType::Auto, featureFlags());
    Tensor runs = g.addVariable(UNSIGNED_INT, {}, "runs");
    Tensor f = g.addVariable(FLOAT, {6, 1}, "f");
    g.setTileMapping(runs, 0);
    g.setTileMapping(f, 0);
    ComputeSet cs = g.addComputeSet("cs");
    // Six one-worker vertices of 100 thread cycles run side by side; the supervisor (600 tile
    // cycles, the SDK's unit for supervisor estimates, = 100 thread cycles) runs after them.
    for (unsigned i = 0; i < 6; ++i) {
        VertexRef v = g.addVertex(cs, "Fill<float>", {{"out", f[i]}});
        g.setPerfEstimate(v, 100);
        g.setTileMapping(v, 0);
    }
    VertexRef s = g.addVertex(cs, "CountRuns", {{"runs", runs}});
    g.setPerfEstimate(s, 600);
    g.setTileMapping(s, 0);
    Engine e(g, Execute(cs));
    const auto& cycles = e.compileRecords().steps[0].estimatedCyclesPerTile;
    CHECK(cycles[0] == costs.computeSetOverheadCycles + 6 * (100 + 100));
}

TEST_CASE("single-file programs load their own file as codelets", "[codelets][sdk]") {
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    g.addCodelets(testCodelet("single_file.cpp"));
    CHECK(typeNames(g) == std::vector<std::string>{"Double"});
    // A host part outside #ifdef __POPC__ compiles in the codelet build as well.
    g.addCodelets(testCodelet("host_and_codelet.cpp"));
    CHECK(hasType(g, "Negate"));
}

TEST_CASE("IPU builtins the simulator does not provide fail to compile by name",
          "[codelets][sdk][errors]") {
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    CHECK_THROWS_WITH(g.addCodelets(testCodelet("uses_unknown_builtin.cpp")),
                      Catch::Contains("uses_unknown_builtin.cpp:11") &&
                          Catch::Contains("__builtin_ipu_get_scount_l"));
}

TEST_CASE("popc builds codelet objects that addCodelets loads", "[codelets][sdk][popc]") {
    const fs::path dir = scratch("popc");
    const std::string popc = quoted(TILESCOPE_POPC);
    const std::string gp = (dir / "features.gp").string();
    auto build =
        run(popc + " -O2 -g -I " + quoted(testCodelet("include")) +
            " -D FILL_OFFSET=3 --target ipu1,ipu2 " + quoted(testCodelet("sdk_features.cpp")) +
            " " + quoted(testCodelet("single_file.cpp")) + " -o " + quoted(gp));
    INFO(build.output);
    REQUIRE(build.status == 0);
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    g.addCodelets(gp);
    CHECK(typeNames(g) == std::vector<std::string>{"CountRuns", "Double", "Fill<float>",
                                                   "Fill<unsigned int>", "maths::RootAbs"});
    Graph g1(Target::createIPUTarget(1, 4, "ipu1"));
    g1.addCodelets(gp, CodeletFileType::Object);
    CHECK(hasType(g1, "Fill<float>"));

    // Only ipu1: an ipu2 graph refuses it, naming both.
    const std::string gp1 = (dir / "ipu1.gp").string();
    REQUIRE(run(popc + " --target ipu1 " + quoted(testCodelet("single_file.cpp")) + " -o " +
                quoted(gp1))
                .status == 0);
    CHECK_THROWS_WITH(g.addCodelets(gp1),
                      Catch::Contains("ipu1") && Catch::Contains("target is ipu2"));
    // A file that is not a popc object.
    CHECK_THROWS_WITH(g.addCodelets(testCodelet("single_file.cpp"), CodeletFileType::Object),
                      Catch::Contains("not a codelet object written by popc"));
    fs::remove_all(dir);
}

TEST_CASE("popc's command line: help, version, errors and exit codes", "[codelets][sdk][popc]") {
    const fs::path dir = scratch("popc-cli");
    const std::string popc = quoted(TILESCOPE_POPC);
    const auto help = run(popc + " --help");
    CHECK(help.status == 0);
    CHECK(help.output.find("--target") != std::string::npos);
    const auto version = run(popc + " --version");
    CHECK(version.status == 0);
    CHECK(version.output.find("popc") != std::string::npos);
    const auto unknown = run(popc + " --bogus x.cpp -o x.gp");
    CHECK(unknown.status == 2);
    CHECK(unknown.output.find("--bogus") != std::string::npos);
    const auto badTarget = run(popc + " --target ipu9 x.cpp -o x.gp");
    CHECK(badTarget.status == 2);
    CHECK(badTarget.output.find("ipu9") != std::string::npos);
    CHECK(run(popc + " " + quoted(testCodelet("single_file.cpp"))).status == 2); // no -o
    const auto missing = run(popc + " no_such_codelets.cpp -o " + quoted((dir / "m.gp").string()));
    CHECK(missing.status == 1);
    CHECK(missing.output.find("popc: error: cannot read codelet file 'no_such_codelets.cpp'") !=
          std::string::npos);
    // A compile error: the compiler's diagnostic with the user's file and line, exit 1.
    const std::string gp = (dir / "bad.gp").string();
    const auto bad = run(popc + " " + quoted(testCodelet("bad_codelet.cpp")) + " -o " + quoted(gp));
    CHECK(bad.status == 1);
    CHECK(bad.output.find("bad_codelet.cpp:10") != std::string::npos);
    CHECK(bad.output.find("undeclared_identifier_in_codelet") != std::string::npos);
    CHECK_FALSE(fs::exists(gp));
    fs::remove_all(dir);
}

TEST_CASE("a supervisor vertex that is also a MultiVertex is refused", "[codelets][sdk][errors]") {
    Graph g(Target::createIPUTarget(1, 4, "ipu2"));
    CHECK_THROWS_WITH(g.addCodelets(testCodelet("supervisor_multivertex.cpp")),
                      Catch::Contains("cannot also be a MultiVertex"));
}
