// Settings, axes, variant names and the launch of a variant (SweepPlan.hpp).

#include "tilescope/sweep/SweepPlan.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <unistd.h>

namespace tilescope::sweep {
namespace {

using nlohmann::json;

// PopLibs operations whose options TILESCOPE_POPLIBS_OPTIONS carries; a bare key starting with
// one of these and a dot is a PopLibs option.
const char* const kPoplibsOperations[] = {"matmul", "convolution"};

bool startsWith(const std::string& s, const std::string& prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

template <class Json> std::string valueText(const Json& v, const std::string& where) {
    if (v.is_string())
        return v.template get<std::string>();
    if (v.is_number() || v.is_boolean())
        return v.dump();
    throw SweepError(where + ": values must be strings, numbers or booleans, got " + v.type_name());
}

/// Characters kept in folder names; everything else becomes '-'.
std::string sanitize(const std::string& text) {
    std::string out;
    for (char c : text)
        out += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '+' || c == '-'
                   ? c
                   : '-';
    if (out.empty() || out == "." || out == "..")
        out = "_" + out;
    return out;
}

std::string shortKey(const Setting& s) {
    const auto dot = s.name.rfind('.');
    return dot == std::string::npos ? s.name : s.name.substr(dot + 1);
}

json objectFromEnvironment(const char* text, const char* variable) {
    if (!text)
        return json::object();
    std::string t(text);
    if (std::all_of(t.begin(), t.end(), [](unsigned char c) { return std::isspace(c); }))
        return json::object();
    try {
        json j = json::parse(t);
        if (j.is_object())
            return j;
    } catch (const json::exception&) {
    }
    throw SweepError(std::string(variable) + " in the environment is not a JSON object: " + t);
}

} // namespace

Setting parseSetting(const std::string& key, const std::string& value) {
    Setting s;
    s.value = value;
    const auto prefixed = [&](const char* prefix, SettingKind kind) {
        if (!startsWith(key, prefix))
            return false;
        s.kind = kind;
        s.name = key.substr(std::string(prefix).size());
        return true;
    };
    if (!prefixed("engine:", SettingKind::EngineOption) &&
        !prefixed("poplibs:", SettingKind::PoplibsOption) &&
        !prefixed("arg:", SettingKind::Argument) && !prefixed("env:", SettingKind::Environment)) {
        if (key.find(':') != std::string::npos)
            throw SweepError("key '" + key +
                             "': unknown prefix (use engine:, poplibs:, arg: or env:)");
        s.name = key;
        s.kind = SettingKind::EngineOption;
        for (const char* op : kPoplibsOperations)
            if (startsWith(key, std::string(op) + "."))
                s.kind = SettingKind::PoplibsOption;
    }
    if (s.name.empty())
        throw SweepError("key '" + key + "' has no name after its prefix");
    switch (s.kind) {
    case SettingKind::EngineOption:
        s.key = "engine:" + s.name;
        break;
    case SettingKind::PoplibsOption: {
        const auto dot = s.name.find('.');
        if (dot == std::string::npos || dot == 0 || dot + 1 == s.name.size())
            throw SweepError("key '" + key +
                             "': a PopLibs option is OPERATION.NAME (e.g. "
                             "poplibs:matmul.availableMemoryProportion)");
        s.key = "poplibs:" + s.name;
        break;
    }
    case SettingKind::Argument:
        if (s.name.find_first_of("{}") != std::string::npos)
            throw SweepError("key '" + key + "': an argument name cannot hold braces");
        s.key = "arg:" + s.name;
        break;
    case SettingKind::Environment:
        if (s.name.find('=') != std::string::npos)
            throw SweepError("key '" + key + "': an environment variable name cannot hold '='");
        s.key = "env:" + s.name;
        break;
    }
    return s;
}

SweepAxis parseAxis(const std::string& text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        throw SweepError("--vary '" + text + "': expected KEY=V1,V2,...");
    SweepAxis axis;
    axis.key = text.substr(0, eq);
    parseSetting(axis.key, ""); // the key's checks
    std::string values = text.substr(eq + 1);
    std::stringstream in(values);
    std::string v;
    std::set<std::string> seen;
    while (std::getline(in, v, ',')) {
        if (v.empty())
            throw SweepError("--vary '" + text + "': empty value");
        if (!seen.insert(v).second)
            throw SweepError("--vary '" + text + "': value '" + v + "' given twice");
        axis.values.push_back(v);
    }
    if (values.empty() || values.back() == ',')
        throw SweepError("--vary '" + text + "': empty value");
    return axis;
}

std::vector<Variant> readVariantsFile(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in)
        throw SweepError(file.string() + ": cannot open the variants file");
    // Settings keep the file's order (it is the order of the variant's name).
    nlohmann::ordered_json j;
    try {
        j = nlohmann::ordered_json::parse(in);
    } catch (const json::exception& e) {
        throw SweepError(file.string() + ": not valid JSON (" + e.what() + ")");
    }
    if (!j.is_array())
        throw SweepError(file.string() + ": expected a JSON array of variants");
    std::vector<Variant> out;
    for (std::size_t i = 0; i < j.size(); ++i) {
        const std::string where = file.string() + ": variant " + std::to_string(i);
        const auto& e = j[i];
        if (!e.is_object())
            throw SweepError(where + ": expected an object");
        Variant v;
        const nlohmann::ordered_json* settings = &e;
        if (e.contains("settings")) {
            settings = &e["settings"];
            if (!settings->is_object())
                throw SweepError(where + ": \"settings\" must be an object");
            if (e.contains("name")) {
                if (!e["name"].is_string() || e["name"].get<std::string>().empty())
                    throw SweepError(where + ": \"name\" must be a non-empty string");
                v.name = e["name"].get<std::string>();
                if (sanitize(v.name) != v.name)
                    throw SweepError(where + ": name '" + v.name +
                                     "' must use only letters, digits, '.', '+' and '-'");
            }
        }
        for (const auto& [key, value] : settings->items())
            v.settings.push_back(parseSetting(key, valueText(value, where + " key " + key)));
        out.push_back(std::move(v));
    }
    if (out.empty())
        throw SweepError(file.string() + ": no variants");
    return out;
}

std::vector<Variant> expandVariants(const std::vector<SweepAxis>& axes,
                                    const std::vector<Variant>& listed) {
    std::vector<Variant> bases = listed.empty() ? std::vector<Variant>{Variant{}} : listed;
    std::vector<Variant> out;
    // An explicitly named listed variant keeps its name as the prefix of its grid points'.
    std::vector<std::pair<std::string, std::size_t>> named; // (name, settings it brought)
    for (const Variant& base : bases) {
        std::vector<std::size_t> index(axes.size(), 0);
        while (true) {
            Variant v = base;
            named.emplace_back(base.name, base.settings.size());
            v.name.clear();
            for (std::size_t a = 0; a < axes.size(); ++a) {
                Setting s = parseSetting(axes[a].key, axes[a].values[index[a]]);
                auto same = std::find_if(v.settings.begin(), v.settings.end(),
                                         [&](const Setting& o) { return o.key == s.key; });
                if (same != v.settings.end())
                    throw SweepError("key '" + s.key +
                                     "' is both in a listed variant and in --vary");
                v.settings.push_back(std::move(s));
            }
            out.push_back(std::move(v));
            std::size_t a = axes.size();
            while (a > 0 && ++index[a - 1] == axes[a - 1].values.size())
                index[--a] = 0;
            if (a == 0)
                break;
        }
    }
    // Names: short keys unless two different keys share a short key.
    std::map<std::string, std::set<std::string>> keysOfShort;
    for (const auto& v : out)
        for (const auto& s : v.settings)
            keysOfShort[shortKey(s)].insert(s.key);
    std::set<std::string> names, settingSets;
    for (std::size_t i = 0; i < out.size(); ++i) {
        Variant& v = out[i];
        {
            const auto& [prefix, skip] = named[i];
            std::string name = prefix;
            for (std::size_t j = prefix.empty() ? 0 : skip; j < v.settings.size(); ++j) {
                const Setting& s = v.settings[j];
                const std::string k = keysOfShort[shortKey(s)].size() > 1 ? s.key : shortKey(s);
                name += (name.empty() ? "" : "_") + sanitize(k) + "-" + sanitize(s.value);
            }
            v.name = name.empty() ? "default" : name;
        }
        if (v.name.size() > 200)
            throw SweepError("variant name too long (" + v.name.substr(0, 40) +
                             "...): name it in a --variants file");
        if (!names.insert(v.name).second)
            throw SweepError("two variants are named '" + v.name +
                             "' (same settings twice, or values that differ only in characters "
                             "a folder name cannot hold)");
        if (!settingSets.insert(settingsJson(v)).second)
            throw SweepError("variant '" + v.name + "' repeats the settings of another");
    }
    return out;
}

const Variant* SweepPlan::find(const std::string& name) const {
    for (const auto& v : variants)
        if (v.name == name)
            return &v;
    return nullptr;
}

void validatePlan(const SweepPlan& plan) {
    if (plan.command.empty())
        throw SweepError("no program to run: give it after '--' (sweep ... -- PROGRAM ARGS...)");
    for (const auto& v : plan.variants)
        for (const auto& s : v.settings)
            if (s.kind == SettingKind::Argument) {
                const std::string marker = "{" + s.name + "}";
                bool used = false;
                for (std::size_t i = 1; i < plan.command.size(); ++i)
                    used = used || plan.command[i].find(marker) != std::string::npos;
                if (!used)
                    throw SweepError("key '" + s.key + "': the program's arguments have no " +
                                     marker + " to replace");
            }
}

std::string settingsJson(const Variant& variant) {
    json j = json::object();
    for (const auto& s : variant.settings)
        j[s.key] = s.value;
    return j.dump();
}

VariantLaunch buildLaunch(const SweepPlan& plan, const Variant& variant,
                          const char* inheritedEngineOptions, const char* inheritedPoplibsOptions) {
    VariantLaunch launch;
    launch.argv = plan.command;
    json engine = {{"autoReport.all", "true"}};
    const json inherited = objectFromEnvironment(inheritedEngineOptions, "POPLAR_ENGINE_OPTIONS");
    for (const auto& [k, v] : inherited.items())
        engine[k] = v;
    json poplibs = objectFromEnvironment(inheritedPoplibsOptions, "TILESCOPE_POPLIBS_OPTIONS");
    std::vector<std::pair<std::string, std::string>> env;
    for (const auto& s : variant.settings) {
        switch (s.kind) {
        case SettingKind::EngineOption:
            engine[s.name] = s.value;
            break;
        case SettingKind::PoplibsOption: {
            const auto dot = s.name.find('.');
            json& op = poplibs[s.name.substr(0, dot)];
            if (!op.is_object())
                op = json::object();
            op[s.name.substr(dot + 1)] = s.value;
            break;
        }
        case SettingKind::Argument: {
            const std::string marker = "{" + s.name + "}";
            for (std::size_t i = 1; i < launch.argv.size(); ++i)
                for (auto at = launch.argv[i].find(marker); at != std::string::npos;
                     at = launch.argv[i].find(marker, at + s.value.size()))
                    launch.argv[i].replace(at, marker.size(), s.value);
            break;
        }
        case SettingKind::Environment:
            env.emplace_back(s.name, s.value);
            break;
        }
    }
    const std::string dir = plan.variantDirectory(variant).string();
    engine["autoReport.directory"] = dir;
    launch.environment = std::move(env);
    launch.environment.emplace_back("POPLAR_ENGINE_OPTIONS", engine.dump());
    if (!poplibs.empty())
        launch.environment.emplace_back("TILESCOPE_POPLIBS_OPTIONS", poplibs.dump());
    launch.environment.emplace_back("TILESCOPE_SWEEP_VARIANT", variant.name);
    launch.environment.emplace_back("TILESCOPE_SWEEP_SETTINGS", settingsJson(variant));
    launch.environment.emplace_back("TILESCOPE_SWEEP_DIR", dir);
    return launch;
}

void writePlan(const SweepPlan& plan) {
    json variants = json::array();
    for (const auto& v : plan.variants) {
        json settings = json::array();
        for (const auto& s : v.settings)
            settings.push_back({s.key, s.value});
        variants.push_back({{"name", v.name}, {"settings", std::move(settings)}});
    }
    const json j = {{"format", "tilescope-sweep"},
                    {"version", 1},
                    {"working_directory", plan.workingDirectory.string()},
                    {"command", plan.command},
                    {"timeout_seconds", plan.timeoutSeconds},
                    {"variants", std::move(variants)}};
    const auto file = plan.directory / "sweep.json";
    const auto temporary = plan.directory / "sweep.json.tmp";
    {
        std::ofstream out(temporary, std::ios::trunc);
        out << j.dump(2) << "\n";
        if (!out.flush())
            throw SweepError(temporary.string() + ": cannot write");
    }
    std::error_code ec;
    std::filesystem::rename(temporary, file, ec);
    if (ec)
        throw SweepError(file.string() + ": cannot write (" + ec.message() + ")");
}

SweepPlan readPlan(const std::filesystem::path& directory) {
    const auto file = directory / "sweep.json";
    std::ifstream in(file);
    if (!in)
        throw SweepError(file.string() + ": cannot open (is " + directory.string() +
                         " a sweep folder?)");
    SweepPlan plan;
    try {
        const json j = json::parse(in);
        if (j.value("format", "") != "tilescope-sweep")
            throw SweepError(file.string() + ": not a TileScope sweep file");
        if (j.value("version", 0) != 1)
            throw SweepError(file.string() + ": sweep file version " +
                             std::to_string(j.value("version", 0)) + " is not supported");
        plan.directory = std::filesystem::absolute(directory);
        plan.workingDirectory = j.at("working_directory").get<std::string>();
        plan.command = j.at("command").get<std::vector<std::string>>();
        plan.timeoutSeconds = j.value("timeout_seconds", 0.0);
        for (const auto& v : j.at("variants")) {
            Variant variant;
            variant.name = v.at("name").get<std::string>();
            if (variant.name.empty() || variant.name.find('/') != std::string::npos ||
                variant.name == "." || variant.name == "..")
                throw SweepError(file.string() + ": bad variant name '" + variant.name + "'");
            for (const auto& s : v.at("settings"))
                variant.settings.push_back(
                    parseSetting(s.at(0).get<std::string>(), s.at(1).get<std::string>()));
            plan.variants.push_back(std::move(variant));
        }
    } catch (const json::exception& e) {
        throw SweepError(file.string() + ": damaged sweep file (" + e.what() + ")");
    }
    return plan;
}

void ensureWritableDirectory(const std::filesystem::path& directory) {
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec)
        throw SweepError(directory.string() + ": cannot create the sweep folder (" + ec.message() +
                         ")");
    if (!std::filesystem::is_directory(directory))
        throw SweepError(directory.string() + ": not a folder");
    if (::access(directory.c_str(), W_OK | X_OK) != 0)
        throw SweepError(directory.string() + ": the sweep folder is not writable");
    const auto probe = directory / ".write-probe";
    {
        std::ofstream out(probe, std::ios::trunc);
        out << "probe\n";
        if (!out.flush())
            throw SweepError(directory.string() + ": the sweep folder is not writable");
    }
    std::filesystem::remove(probe, ec);
}

} // namespace tilescope::sweep
