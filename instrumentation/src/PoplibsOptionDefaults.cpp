#include "tilescope/capture/PoplibsOptionDefaults.hpp"

#include "tilescope/capture/TraceOptions.hpp" // OptionsError

#include <cctype>
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace tilescope::capture {
namespace {

bool blank(const char* text) {
    for (; *text; ++text)
        if (!std::isspace(static_cast<unsigned char>(*text)))
            return false;
    return true;
}

const std::string kVariable = kPoplibsOptionsVariable;

} // namespace

PoplibsOptionDefaults PoplibsOptionDefaults::parse(const char* text) {
    PoplibsOptionDefaults out;
    if (!text || blank(text))
        return out;
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw OptionsError(kVariable + ": not valid JSON (" + e.what() +
                           "); expected an object such as "
                           "{\"matmul\":{\"availableMemoryProportion\":\"0.3\"}}");
    }
    if (!j.is_object())
        throw OptionsError(kVariable + ": expected a JSON object of operation names, got " +
                           j.type_name());
    for (const auto& [operation, options] : j.items()) {
        if (!options.is_object())
            throw OptionsError(kVariable + ": operation '" + operation +
                               "' must map to an object of options, got " + options.type_name());
        auto& into = out.byOperation[operation];
        for (const auto& [name, value] : options.items()) {
            if (value.is_string())
                into[name] = value.get<std::string>();
            else if (value.is_number() || value.is_boolean())
                into[name] = value.dump();
            else
                throw OptionsError(kVariable + ": option '" + operation + "." + name +
                                   "' must be a string, number or boolean, got " +
                                   value.type_name());
        }
    }
    return out;
}

PoplibsOptionDefaults PoplibsOptionDefaults::fromEnvironment() {
    return parse(std::getenv(kPoplibsOptionsVariable));
}

const std::map<std::string, std::string>&
PoplibsOptionDefaults::of(const std::string& operation) const {
    static const std::map<std::string, std::string> none;
    const auto it = byOperation.find(operation);
    return it == byOperation.end() ? none : it->second;
}

std::string PoplibsOptionDefaults::toJson() const {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [operation, options] : byOperation)
        for (const auto& [name, value] : options)
            j[operation][name] = value;
    return j.dump();
}

} // namespace tilescope::capture
