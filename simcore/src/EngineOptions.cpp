#include "tilescope/sim/EngineOptions.hpp"

#include "poplar/exceptions.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <nlohmann/json.hpp>

namespace tilescope::sim {

namespace {

enum class Kind { Bool, Unsigned, String };

struct Known {
    Kind kind;
    bool applies;
};

/// Every option name the engine accepts. Names the simulator cannot honour are accepted (so
/// programs written for hardware run unchanged) and reported as not applying.
const std::map<std::string, Known, std::less<>>& knownOptions() {
    static const std::map<std::string, Known, std::less<>> known = {
        {"autoReport.all", {Kind::Bool, true}},
        {"autoReport.directory", {Kind::String, true}},
        {"autoReport.outputGraphProfile", {Kind::Bool, true}},
        {"autoReport.outputExecutionProfile", {Kind::Bool, true}},
        {"autoReport.outputLoweredVars", {Kind::Bool, false}},
        {"autoReport.outputSerializedGraph", {Kind::Bool, false}},
        {"autoReport.outputArchive", {Kind::Bool, false}},
        {"autoReport.executionProfileProgramRunCount", {Kind::Unsigned, false}},
        {"autoReport.streamAtEachRun", {Kind::Bool, false}},
        {"debug.allowOutOfMemory", {Kind::Bool, true}},
        {"debug.instrument", {Kind::Bool, true}},
        {"debug.instrumentCompute", {Kind::Bool, false}},
        {"debug.instrumentExternalExchange", {Kind::Bool, false}},
        {"debug.instrumentControlFlow", {Kind::Bool, false}},
        {"debug.computeInstrumentationLevel", {Kind::String, false}},
        {"debug.retainDebugInformation", {Kind::Bool, false}},
        {"debug.verify", {Kind::Bool, false}},
        {"debug.runtimeVerify", {Kind::Bool, false}},
        {"opt.maxCompilationThreads", {Kind::Unsigned, false}},
        {"opt.internalExchangeOptimisationTarget", {Kind::String, false}},
        {"profiler.format", {Kind::String, false}},
        {"profiler.includeFlopEstimates", {Kind::Bool, false}},
        {"target.syncReplicasIndependently", {Kind::Bool, false}},
        {"target.workerStackSizeInBytes", {Kind::Unsigned, false}},
        {"target.supervisorStackSizeInBytes", {Kind::Unsigned, false}},
        {"tilescope.hostThreads", {Kind::Unsigned, true}},
    };
    return known;
}

bool parseBool(const std::string& name, const std::string& v) {
    if (v == "true")
        return true;
    if (v == "false")
        return false;
    throw poplar::invalid_option("Option '" + name + "' must be \"true\" or \"false\", got \"" + v +
                                 "\"");
}

unsigned parseUnsigned(const std::string& name, const std::string& v) {
    unsigned out = 0;
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    if (ec != std::errc() || end != v.data() + v.size() || v.empty())
        throw poplar::invalid_option("Option '" + name +
                                     "' must be a non-negative integer, got \"" + v + "\"");
    return out;
}

} // namespace

EngineOptions EngineOptions::parse(const std::vector<std::pair<std::string, std::string>>& api,
                                   const char* environmentJson) {
    std::vector<EffectiveOption> all;
    for (const auto& [k, v] : api)
        all.push_back({k, v, OptionSource::Api, true});
    if (environmentJson && *environmentJson) {
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(environmentJson);
        } catch (const nlohmann::json::parse_error& e) {
            throw poplar::parse_error(std::string("POPLAR_ENGINE_OPTIONS is not valid JSON: ") +
                                      e.what());
        }
        if (!j.is_object())
            throw poplar::parse_error("POPLAR_ENGINE_OPTIONS must be a JSON object of option "
                                      "names to values");
        for (const auto& [k, v] : j.items()) {
            std::string value;
            if (v.is_string())
                value = v.get<std::string>();
            else if (v.is_boolean())
                value = v.get<bool>() ? "true" : "false";
            else if (v.is_number_unsigned())
                value = std::to_string(v.get<std::uint64_t>());
            else
                throw poplar::invalid_option("POPLAR_ENGINE_OPTIONS: option '" + k +
                                             "' must be a string, boolean or unsigned number");
            auto it = std::find_if(all.begin(), all.end(), [&](auto& o) { return o.name == k; });
            if (it != all.end())
                *it = {k, value, OptionSource::Environment, true};
            else
                all.push_back({k, value, OptionSource::Environment, true});
        }
    }

    EngineOptions o;
    const auto& known = knownOptions();
    for (auto& opt : all) {
        auto it = known.find(opt.name);
        if (it == known.end()) {
            // Suggest a known option differing only in case: a frequent mistake.
            std::string hint;
            for (const auto& [name, k] : known) {
                (void)k;
                if (name.size() == opt.name.size() &&
                    std::equal(name.begin(), name.end(), opt.name.begin(), [](char a, char b) {
                        return std::tolower(static_cast<unsigned char>(a)) ==
                               std::tolower(static_cast<unsigned char>(b));
                    }))
                    hint = " (did you mean '" + name + "'?)";
            }
            throw poplar::invalid_option(
                "Unrecognised engine option '" + opt.name + "'" + hint +
                (opt.source == OptionSource::Environment ? " in POPLAR_ENGINE_OPTIONS" : ""));
        }
        opt.applies = it->second.applies;
        switch (it->second.kind) {
        case Kind::Bool:
            parseBool(opt.name, opt.value);
            break;
        case Kind::Unsigned:
            parseUnsigned(opt.name, opt.value);
            break;
        case Kind::String:
            break;
        }
        const auto& n = opt.name;
        if (n == "debug.allowOutOfMemory")
            o.allowOutOfMemory = parseBool(n, opt.value);
        else if (n == "debug.instrument")
            o.instrument = parseBool(n, opt.value);
        else if (n == "tilescope.hostThreads")
            o.hostThreads = parseUnsigned(n, opt.value);
        else if (n == "autoReport.directory")
            o.autoReportDirectory = opt.value;
        else if (n == "autoReport.all" && parseBool(n, opt.value))
            o.autoReportGraph = o.autoReportExecution = true;
        else if (n == "autoReport.outputGraphProfile")
            o.autoReportGraph = parseBool(n, opt.value);
        else if (n == "autoReport.outputExecutionProfile")
            o.autoReportExecution = parseBool(n, opt.value);
    }
    o.effective = std::move(all);
    return o;
}

} // namespace tilescope::sim
