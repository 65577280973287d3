#include "tilescope/capture/EngineOptions.hpp"

#include "tilescope/capture/EngineOptionTable.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

namespace tilescope::capture {
namespace {

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

/// The value of a regular-expression option, checked by compiling it (ECMAScript, as the
/// engine matches it).
std::string checkedRegex(const report::EngineOption& o) {
    try {
        std::regex re(o.value);
    } catch (const std::regex_error& e) {
        fail(o, "is not a valid regular expression: \"" + o.value + "\" (" + e.what() + ")");
    }
    return o.value;
}

std::string suggestion(const std::string& name) {
    auto lower = [](std::string s) {
        std::transform(s.begin(), s.end(), s.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return s;
    };
    for (const auto& known : engineOptionTable())
        if (lower(known.name) == lower(name))
            return std::string(" (did you mean '") + known.name + "'?)";
    return " (see the list of engine options in the TileScope README)";
}

/// Checks a value against its option's kind, as the SDK does.
void check(const report::EngineOption& o, const EngineOptionSpec& spec) {
    switch (spec.kind) {
    case OptionKind::Bool:
        toBool(o);
        break;
    case OptionKind::Unsigned:
        toUnsigned(o);
        break;
    case OptionKind::UnsignedOrWord:
        if (o.value != spec.choices) {
            unsigned out = 0;
            const auto* end = o.value.data() + o.value.size();
            auto [p, ec] = std::from_chars(o.value.data(), end, out);
            if (o.value.empty() || ec != std::errc() || p != end)
                fail(o, "must be a non-negative integer or \"" + std::string(spec.choices) +
                            "\", got \"" + o.value + "\"");
        }
        break;
    case OptionKind::Choice: {
        const std::string_view choices = spec.choices;
        std::string listed;
        std::size_t from = 0;
        bool found = false;
        while (from <= choices.size()) {
            auto bar = choices.find('|', from);
            if (bar == std::string_view::npos)
                bar = choices.size();
            const auto choice = choices.substr(from, bar - from);
            found = found || choice == o.value;
            listed += (listed.empty()          ? ""
                       : bar == choices.size() ? " or "
                                               : ", ") +
                      ("\"" + std::string(choice) + "\"");
            from = bar + 1;
        }
        if (!found)
            fail(o, "must be " + listed + ", got \"" + o.value + "\"");
        break;
    }
    case OptionKind::String:
        if (o.value.empty())
            fail(o, "must not be empty");
        break;
    }
}

/// Shells often export POPLAR_ENGINE_OPTIONS empty: only whitespace counts as unset.
bool blank(const char* text) {
    for (; *text; ++text)
        if (!std::isspace(static_cast<unsigned char>(*text)))
            return false;
    return true;
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
    if (environmentJson && !blank(environmentJson)) {
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
    bool enablePrefetch = true, lookahead = true;
    for (auto& opt : given) {
        const EngineOptionSpec* spec = findEngineOption(opt.name);
        if (!spec)
            fail(opt, "is not a known engine option" + suggestion(opt.name));
        opt.applies = spec->applies;
        check(opt, *spec);
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
        else if (n == "profiler.blocks.filter")
            o.blocksFilter = checkedRegex(opt);
        else if (n == "profiler.programs.filter")
            o.programsFilter = checkedRegex(opt);
        else if (n == "profiler.blocks.tile")
            o.blocksTile = toUnsigned(opt);
        else if (n == "profiler.blocks.implicitFlush")
            o.blocksImplicitFlush = toBool(opt);
        else if (n == "profiler.blocks.bufferSize")
            o.blocksBufferSize = toUnsigned(opt);
        else if (n == "debug.instrumentExternalExchange")
            o.instrumentExternalExchange = toBool(opt);
        else if (n == "tilescope.hostThreads")
            o.hostThreads = toUnsigned(opt);
        else if (n == "profiler.replicaToProfile")
            o.replicaToProfile = toUnsigned(opt);
        else if (n == "target.saveArchive")
            o.saveArchive = opt.value;
        else if (n == "debug.loweredVarDumpFile")
            o.loweredVarDumpFile = opt.value;
        else if (n == "exchange.enablePrefetch")
            enablePrefetch = toBool(opt);
        else if (n == "streamCallbacks.maxLookahead")
            lookahead = opt.value != "0";
    }
    // autoReport.all switches every output on; an explicit output option overrides it.
    o.graphProfile = graph.value_or(all);
    o.executionProfile = execution.value_or(all);
    o.debugInfo = debugInfo.value_or(all);
    o.loweredVars = lowered.value_or(all);
    o.streamPrefetch = enablePrefetch && lookahead;

    o.inForce = given;
    for (const auto& spec : engineOptionTable())
        if (spec.defaultValue &&
            std::none_of(given.begin(), given.end(), [&](auto& g) { return g.name == spec.name; }))
            o.inForce.push_back({spec.name, spec.defaultValue, "default", spec.applies});
    std::sort(o.inForce.begin(), o.inForce.end(),
              [](const auto& a, const auto& b) { return a.name < b.name; });
    return o;
}

} // namespace tilescope::capture
