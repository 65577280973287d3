// Operations in captured reports: the mlp_forward example (a user operation around PopLibs calls)
// profiled through POPLAR_ENGINE_OPTIONS; operations, their programs and variables, and FLOP
// estimates read back through ProfileReader, each only when its option asks for it.

#include "tilescope/report/OperationRollup.hpp"
#include "tilescope/report/ProfileReader.hpp"

#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/wait.h>

using namespace tilescope::report;
namespace fs = std::filesystem;

namespace {

// mlp_forward's default sizes: batch 16, inputs 300, hidden 128, classes 10.
constexpr std::uint64_t kBatch = 16, kInputs = 300, kHidden = 128, kClasses = 10;

/// Runs mlp_forward in a fresh directory with POPLAR_ENGINE_OPTIONS set to `json`; returns the
/// report's path.
fs::path profileMlp(const std::string& name, const std::string& json) {
    const fs::path dir = fs::temp_directory_path() / "tilescope-operation-tests" / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string cmd = "cd '" + dir.string() + "' && POPLAR_ENGINE_OPTIONS='" + json + "' '" +
                            MLP_FORWARD_EXAMPLE + "' 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p);
    std::string output;
    std::array<char, 4096> buf{};
    while (std::size_t n = fread(buf.data(), 1, buf.size(), p))
        output.append(buf.data(), n);
    const int status = pclose(p);
    INFO(output);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    return dir / "profile.pop";
}

/// Runs `command` and returns its standard output; fails the test if it exits non-zero.
std::string run(const std::string& command) {
    FILE* p = popen(command.c_str(), "r");
    REQUIRE(p);
    std::string output;
    std::array<char, 4096> buf{};
    while (std::size_t n = fread(buf.data(), 1, buf.size(), p))
        output.append(buf.data(), n);
    const int status = pclose(p);
    INFO(command << "\n" << output);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    return output;
}

std::map<std::string, OperationRecord> byPath(const ProfileReader& r) {
    std::map<std::string, OperationRecord> out;
    for (auto& op : r.operations(0, 10000))
        out.emplace(op.debugPath, op);
    return out;
}

} // namespace

TEST_CASE("outputDebugInfo stores each operation with its programs, variables and FLOPs") {
    const auto file = profileMlp("flops", R"({"autoReport.all":"true",)"
                                          R"("profiler.includeFlopEstimates":"true"})");
    ProfileReader r(file.string());
    const auto ops = byPath(r);

    // The user's operations, and the PopLibs calls made under them.
    REQUIRE(ops.count("mlp"));
    CHECK(ops.at("mlp").layer == "model");
    REQUIRE(ops.count("mlp/layer1/matMul"));
    const auto& mm1 = ops.at("mlp/layer1/matMul");
    CHECK(mm1.name == "matMul");
    CHECK(mm1.layer == "PopLibs");
    REQUIRE(mm1.flops);
    CHECK(*mm1.flops == 2 * kBatch * kInputs * kHidden);
    REQUIRE(ops.count("mlp/layer2/matMul"));
    CHECK(ops.at("mlp/layer2/matMul").flops ==
          std::optional<std::uint64_t>(2 * kBatch * kHidden * kClasses));
    REQUIRE(ops.count("mlp/layer1/bias"));
    CHECK(ops.at("mlp/layer1/bias").name == "addInPlace");
    CHECK(ops.at("mlp/layer1/bias").flops == std::optional<std::uint64_t>(kBatch * kHidden));
    REQUIRE(ops.count("mlp/layer1/relu"));
    CHECK(ops.at("mlp/layer1/relu").name == "nonLinearityInPlace");
    REQUIRE(ops.count("mlp/loss"));
    CHECK(ops.at("mlp/loss").name == "calcLoss");

    // The matMul's programs are its Execute of the block products; its variables include its
    // output, named under its debug path.
    REQUIRE_FALSE(mm1.programIds.empty());
    bool executes = false;
    for (auto id : mm1.programIds) {
        const auto p = r.program(id);
        REQUIRE(p);
        executes = executes || (p->kind == "Execute" && p->name == "mlp/layer1/matMul");
    }
    CHECK(executes);
    REQUIRE_FALSE(mm1.variableIds.empty());
    std::map<std::int64_t, std::string> variableNames;
    for (const auto& v : r.variables(0, 100000))
        variableNames[v.id] = v.name;
    bool output = false;
    for (auto id : mm1.variableIds) {
        REQUIRE(variableNames.count(id));
        CHECK(variableNames[id].rfind("mlp/layer1/matMul/", 0) == 0);
        output = output || variableNames[id] == "mlp/layer1/matMul/output";
    }
    CHECK(output);

    // No operation claims more FLOPs than the program's arithmetic could need: the two matMuls
    // dominate and everything else is at most a few operations per element.
    std::uint64_t total = 0;
    for (const auto& [path, op] : ops)
        total += op.flops.value_or(0);
    CHECK(total >= 2 * kBatch * (kInputs * kHidden + kHidden * kClasses));
    CHECK(total <= 2 * kBatch * (kInputs * kHidden + kHidden * kClasses) + 40 * kBatch * kHidden);
}

TEST_CASE("FLOPs are stored only with profiler.includeFlopEstimates") {
    const auto file = profileMlp("no-flops", R"({"autoReport.all":"true"})");
    ProfileReader r(file.string());
    const auto ops = byPath(r);
    REQUIRE(ops.count("mlp/layer1/matMul"));
    for (const auto& [path, op] : ops) {
        INFO(path);
        CHECK_FALSE(op.flops);
    }
}

TEST_CASE("operations are left out when autoReport.outputDebugInfo is false") {
    const auto file = profileMlp("no-debug-info", R"({"autoReport.all":"true",)"
                                                  R"("autoReport.outputDebugInfo":"false",)"
                                                  R"("profiler.includeFlopEstimates":"true"})");
    ProfileReader r(file.string());
    CHECK(r.operations(0, 10000).empty());
    CHECK_FALSE(r.computeSets(0, 10).empty()); // the rest of the graph profile is there
}

TEST_CASE("operations roll up: inclusive totals are self plus their children's inclusive") {
    const auto file = profileMlp("rollup", R"({"autoReport.all":"true",)"
                                           R"("profiler.includeFlopEstimates":"true"})");
    ProfileReader r(file.string());
    const RolledUpOperations rolled = rollUpOperations(r);
    const auto& ops = rolled.operations;
    const OperationRollup& up = rolled.rollup;
    REQUIRE(up.inclusive.size() == ops.size());
    using Totals = OperationRollup::Totals;
    std::vector<Totals> expected = up.self;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        INFO(ops[i].operation.debugPath);
        CHECK(up.self[i].cycles == ops[i].estimatedCycles);
        CHECK(up.self[i].codeBytes == ops[i].codeBytes);
        CHECK(up.self[i].variableBytes == ops[i].variableBytes);
        CHECK(up.self[i].flops == ops[i].operation.flops);
    }
    // Sum each operation's direct children's inclusive figures onto its self figures.
    for (std::size_t i = 0; i < ops.size(); ++i)
        for (std::size_t c = 0; c < ops.size(); ++c)
            if (up.parent[c] == int(i)) {
                expected[i].steps += up.inclusive[c].steps;
                expected[i].cycles += up.inclusive[c].cycles;
                expected[i].codeBytes += up.inclusive[c].codeBytes;
                expected[i].variableBytes += up.inclusive[c].variableBytes;
                if (up.inclusive[c].flops)
                    expected[i].flops = expected[i].flops.value_or(0) + *up.inclusive[c].flops;
            }
    for (std::size_t i = 0; i < ops.size(); ++i) {
        INFO(ops[i].operation.debugPath);
        CHECK(up.inclusive[i].steps == expected[i].steps);
        CHECK(up.inclusive[i].cycles == expected[i].cycles);
        CHECK(up.inclusive[i].codeBytes == expected[i].codeBytes);
        CHECK(up.inclusive[i].variableBytes == expected[i].variableBytes);
        CHECK(up.inclusive[i].flops == expected[i].flops);
    }
    // "mlp" holds every PopLibs call: its inclusive figures are the whole program's operations.
    std::size_t mlp = ops.size();
    for (std::size_t i = 0; i < ops.size(); ++i)
        if (ops[i].operation.debugPath == "mlp")
            mlp = i;
    REQUIRE(mlp < ops.size());
    CHECK(up.parent[mlp] == -1);
    CHECK(up.descendants[mlp] == int(ops.size()) - 1);
    std::uint64_t allCycles = 0, allFlops = 0;
    for (const auto& op : ops) {
        allCycles += op.estimatedCycles;
        allFlops += op.operation.flops.value_or(0);
    }
    CHECK(up.inclusive[mlp].cycles == allCycles);
    CHECK(up.inclusive[mlp].cycles > up.self[mlp].cycles);
    CHECK(up.inclusive[mlp].flops == allFlops);
}

TEST_CASE("debug information: PopLibs arguments and outputs and user values round-trip") {
    const auto file = profileMlp("debuginfo", R"({"autoReport.all":"true"})");
    ProfileReader r(file.string());
    const auto ops = byPath(r);

    // A PopLibs call: the API name, its tensor arguments (name, shape, type), options, output.
    REQUIRE(ops.count("mlp/layer1/matMul"));
    const auto mm = nlohmann::json::parse(ops.at("mlp/layer1/matMul").debugJson);
    CHECK(mm.at("api") == "matMul");
    CHECK(mm.at("args").at("A").at("shape") == "[16, 300]");
    CHECK(mm.at("args").at("A").at("type") == "float");
    CHECK(mm.at("args").at("A").at("name") == "mlp/x/A");
    CHECK(mm.at("args").at("B").at("shape") == "[300, 128]");
    CHECK(mm.at("args").at("outputType") == "float");
    CHECK(mm.at("args").at("options").is_object());
    CHECK(mm.at("output").at("shape") == "[16, 128]");
    CHECK(mm.at("output").at("type") == "float");
    // The plan the simulator chose stays recorded beside the SDK's keys.
    CHECK(mm.contains("plan"));

    // The matMul's output tensor is the variable the operation owns under that name.
    const std::string outName = mm.at("output").at("name");
    CHECK(outName.rfind("mlp/layer1/matMul/", 0) == 0);

    REQUIRE(ops.count("mlp/layer1/bias"));
    const auto bias = nlohmann::json::parse(ops.at("mlp/layer1/bias").debugJson);
    CHECK(bias.at("api") == "addInPlace");
    CHECK(bias.at("args").at("b").at("shape") == "[128]");

    // User values set with DebugInfo::setValue: numbers, strings and maps keep their types.
    REQUIRE(ops.count("mlp"));
    const auto mlp = nlohmann::json::parse(ops.at("mlp").debugJson);
    CHECK(mlp.at("activation") == "relu");
    CHECK(mlp.at("sizes").at("batch") == kBatch);
    CHECK(mlp.at("sizes").at("classes") == kClasses);
    CHECK(nlohmann::json::parse(ops.at("mlp/layer1").debugJson).at("units") == kHidden);
    CHECK(nlohmann::json::parse(ops.at("mlp/layer2").debugJson).at("units") == kClasses);
}

TEST_CASE("debug information is in the report's tables for tilescope-cli sql and export") {
    const auto file = profileMlp("debuginfo-cli", R"({"autoReport.all":"true"})");
    const std::string cli = TILESCOPE_CLI_PATH;
    const auto json = nlohmann::json::parse(
        run("'" + cli + "' sql --format json '" + file.string() +
            "' \"SELECT n.text AS api, g.info FROM operation o JOIN name n ON n.id = o.name_id "
            "JOIN operation_debug g ON g.operation_id = o.id JOIN name d ON d.id = "
            "o.debug_path_id WHERE d.text = 'mlp/layer2/matMul'\""));
    INFO(json.dump());
    REQUIRE(json.size() == 1);
    CHECK(json[0].at("api") == "matMul");
    const auto info = nlohmann::json::parse(json[0].at("info").get<std::string>());
    CHECK(info.at("args").at("B").at("shape") == "[128, 10]");
    CHECK(info.at("output").at("shape") == "[16, 10]");

    const std::string exported =
        run("'" + cli + "' export '" + file.string() + "' --table operation_debug --format csv");
    CHECK(exported.find("operation_id,info") == 0);
    CHECK(exported.find("\"\"api\"\":\"\"matMul\"\"") != std::string::npos);
}
