#include "tilescope/capture/EngineOptions.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <nlohmann/json.hpp>

namespace tilescope::capture {
namespace {

enum class Kind { Bool, Unsigned, String, Level };

struct Known {
    Kind kind;
    bool applies; ///< false: accepted so hardware programs run unchanged, but without effect here
    const char* defaultValue; ///< stored in the report when not given (nullptr: not stored)
};

const std::map<std::string, Known, std::less<>>& knownOptions() {
    static const std::map<std::string, Known, std::less<>> known = {
        {"autoReport.all", {Kind::Bool, true, "false"}},
        {"autoReport.directory", {Kind::String, true, "."}},
        {"autoReport.outputGraphProfile", {Kind::Bool, true, nullptr}},
        {"autoReport.outputExecutionProfile", {Kind::Bool, true, nullptr}},
        {"autoReport.outputDebugInfo", {Kind::Bool, true, nullptr}},
        {"autoReport.outputLoweredVars", {Kind::Bool, true, nullptr}},
        {"autoReport.outputSerializedGraph", {Kind::Bool, false, nullptr}},
        {"autoReport.outputArchive", {Kind::Bool, false, nullptr}},
        {"autoReport.executionProfileProgramRunCount", {Kind::Unsigned, true, "2"}},
        {"autoReport.streamAtEachRun", {Kind::Bool, true, "false"}},
        {"debug.allowOutOfMemory", {Kind::Bool, true, "false"}},
        {"debug.instrument", {Kind::Bool, true, nullptr}},
        {"debug.instrumentCompute", {Kind::Bool, true, nullptr}},
        {"debug.instrumentExternalExchange", {Kind::Bool, false, nullptr}},
        {"debug.instrumentControlFlow", {Kind::Bool, false, nullptr}},
        {"debug.computeInstrumentationLevel", {Kind::Level, true, "tile"}},
        {"debug.retainDebugInformation", {Kind::Bool, true, nullptr}},
        {"debug.verify", {Kind::Bool, false, nullptr}},
        {"debug.runtimeVerify", {Kind::Bool, false, nullptr}},
        {"opt.maxCompilationThreads", {Kind::Unsigned, false, nullptr}},
        {"opt.internalExchangeOptimisationTarget", {Kind::String, false, nullptr}},
        {"profiler.format", {Kind::String, false, nullptr}},
        // Stores the estimated FLOPs of each operation (PopLibs calls estimate theirs).
        {"profiler.includeFlopEstimates", {Kind::Bool, true, nullptr}},
        {"target.syncReplicasIndependently", {Kind::Bool, false, nullptr}},
        {"target.workerStackSizeInBytes", {Kind::Unsigned, false, nullptr}},
        {"target.supervisorStackSizeInBytes", {Kind::Unsigned, false, nullptr}},
        {"tilescope.hostThreads", {Kind::Unsigned, true, nullptr}},
    };
    return known;
}

[[noreturn]] void fail(const report::EngineOption& o, const std::string& what) {
    const std::string where = o.source == "env" ? "POPLAR_ENGINE_OPTIONS: option" : "Engine option";
    throw OptionsError(where + " '" + o.name + "' " + what);
}

bool toBool(const report::EngineOption& o) {
    if (o.value == "true")
        return true;
    if (o.value == "false")
        return false;
    fail(o, "must be \"true\" or \"false\", got \"" + o.value + "\"");
}

unsigned toUnsigned(const report::EngineOption& o) {
    unsigned out = 0;
    const auto* end = o.value.data() + o.value.size();
    auto [p, ec] = std::from_chars(o.value.data(), end, out);
    if (o.value.empty() || ec != std::errc() || p != end)
        fail(o, "must be a non-negative integer, got \"" + o.value + "\"");
    return out;
}

std::string suggestion(const std::string& name) {
    auto lower = [](std::string s) {
        std::transform(s.begin(), s.end(), s.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return s;
    };
    for (const auto& [known, k] : knownOptions())
        if (lower(known) == lower(name))
            return " (did you mean '" + known + "'?)";
    return " (see the list of engine options in the TileScope README)";
}

} // namespace

EngineOptions EngineOptions::parse(const std::vector<std::pair<std::string, std::string>>& api,
                                   const char* environmentJson) {
    std::vector<report::EngineOption> given;
    auto set = [&](const std::string& name, const std::string& value, const char* source) {
        auto it = std::find_if(given.begin(), given.end(), [&](auto& o) { return o.name == name; });
        if (it != given.end())
            *it = {name, value, source, true};
        else
            given.push_back({name, value, source, true});
    };
    for (const auto& [k, v] : api)
        set(k, v, "api");
    if (environmentJson) {
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(environmentJson);
        } catch (
            const nlohmann::json::exception& e) { // parse_error, or out_of_range for huge numbers
            throw OptionsError(std::string("POPLAR_ENGINE_OPTIONS: not valid JSON (") + e.what() +
                               "); expected an object such as {\"autoReport.all\":\"true\"}");
        }
        if (!j.is_object())
            throw OptionsError(std::string("POPLAR_ENGINE_OPTIONS: expected a JSON object of "
                                           "option names to string values, got ") +
                               j.type_name());
        for (const auto& [k, v] : j.items()) {
            if (!v.is_string())
                throw OptionsError("POPLAR_ENGINE_OPTIONS: option '" + k +
                                   "' must have a string value (e.g. \"true\"), got " + v.dump());
            set(k, v.get<std::string>(), "env");
        }
    }

    EngineOptions o;
    bool all = false;
    std::optional<bool> graph, execution, debugInfo, lowered;
    const auto& known = knownOptions();
    for (auto& opt : given) {
        const auto it = known.find(opt.name);
        if (it == known.end())
            fail(opt, "is not a known engine option" + suggestion(opt.name));
        opt.applies = it->second.applies;
        switch (it->second.kind) {
        case Kind::Bool:
            toBool(opt);
            break;
        case Kind::Unsigned:
            toUnsigned(opt);
            break;
        case Kind::Level:
            if (opt.value != "vertex" && opt.value != "tile" && opt.value != "ipu")
                fail(opt, "must be \"vertex\", \"tile\" or \"ipu\", got \"" + opt.value + "\"");
            break;
        case Kind::String:
            if (opt.value.empty())
                fail(opt, "must not be empty");
            break;
        }
        const std::string& n = opt.name;
        if (n == "autoReport.all")
            all = toBool(opt);
        else if (n == "autoReport.outputGraphProfile")
            graph = toBool(opt);
        else if (n == "autoReport.outputExecutionProfile")
            execution = toBool(opt);
        else if (n == "autoReport.outputDebugInfo")
            debugInfo = toBool(opt);
        else if (n == "autoReport.outputLoweredVars")
            lowered = toBool(opt);
        else if (n == "autoReport.directory")
            o.directory = opt.value;
        else if (n == "autoReport.executionProfileProgramRunCount")
            o.storedRuns = toUnsigned(opt);
        else if (n == "autoReport.streamAtEachRun")
            o.streamAtEachRun = toBool(opt);
        else if (n == "debug.instrument")
            o.instrument = toBool(opt);
        else if (n == "debug.instrumentCompute")
            o.instrumentCompute = toBool(opt);
        else if (n == "debug.computeInstrumentationLevel")
            o.instrumentationLevel = opt.value;
        else if (n == "debug.allowOutOfMemory")
            o.allowOutOfMemory = toBool(opt);
        else if (n == "debug.retainDebugInformation")
            o.retainDebugInformation = toBool(opt);
        else if (n == "profiler.includeFlopEstimates")
            o.includeFlopEstimates = toBool(opt);
        else if (n == "tilescope.hostThreads")
            o.hostThreads = toUnsigned(opt);
    }
    // autoReport.all switches every output on; an explicit output option overrides it.
    o.graphProfile = graph.value_or(all);
    o.executionProfile = execution.value_or(all);
    o.debugInfo = debugInfo.value_or(all);
    o.loweredVars = lowered.value_or(all);

    o.inForce = given;
    for (const auto& entry : known) {
        const std::string& name = entry.first;
        const Known& k = entry.second;
        if (k.defaultValue &&
            std::none_of(given.begin(), given.end(), [&](auto& g) { return g.name == name; }))
            o.inForce.push_back({name, k.defaultValue, "default", k.applies});
    }
    std::sort(o.inForce.begin(), o.inForce.end(),
              [](const auto& a, const auto& b) { return a.name < b.name; });
    return o;
}

} // namespace tilescope::capture
