#include "tilescope/capture/TraceOptions.hpp"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

namespace tilescope::capture {
namespace {

[[noreturn]] void fail(const std::string& what) {
    throw OptionsError("PVTI_OPTIONS: " + what);
}

bool parseBool(const nlohmann::json& v, const char* key) {
    if (v.is_boolean())
        return v.get<bool>();
    if (v.is_string()) {
        const auto s = v.get<std::string>();
        if (s == "true" || s == "1")
            return true;
        if (s == "false" || s == "0")
            return false;
    }
    fail(std::string("option '") + key + "' must be \"true\" or \"false\", got " + v.dump());
}

// A positive size in megabytes, as a number or a string ("64", "0.5"), in bytes.
std::int64_t parseMegabytes(const nlohmann::json& v, const char* key) {
    double mb = 0;
    bool ok = false;
    if (v.is_number()) {
        mb = v.get<double>();
        ok = true;
    } else if (v.is_string()) {
        const auto s = v.get<std::string>();
        std::size_t used = 0;
        try {
            mb = std::stod(s, &used);
            ok = used == s.size();
        } catch (const std::exception&) {
        }
    }
    // At most 1 TB: beyond it the bound is no bound.
    if (!ok || !(mb > 0) || mb > 1024.0 * 1024.0)
        fail(std::string("option '") + key +
             "' must be a positive number of megabytes (at most 1048576), got " + v.dump());
    return static_cast<std::int64_t>(mb * 1024.0 * 1024.0);
}

} // namespace

bool TraceOptions::channelEnabled(std::string_view name) const {
    if (!enable)
        return false;
    if (!channels)
        return true;
    return std::find(channels->begin(), channels->end(), name) != channels->end();
}

TraceOptions TraceOptions::parse(std::string_view text) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) { // parse_error, or out_of_range for huge numbers
        fail(std::string("not valid JSON (") + e.what() + ")");
    }
    if (!j.is_object())
        fail("expected a JSON object such as {\"enable\":\"true\"}, got " +
             std::string(j.type_name()));
    TraceOptions o;
    for (const auto& [key, value] : j.items()) {
        if (key == "enable") {
            o.enable = parseBool(value, "enable");
        } else if (key == "directory") {
            if (!value.is_string() || value.get<std::string>().empty())
                fail("option 'directory' must be a non-empty string, got " + value.dump());
            o.directory = value.get<std::string>();
        } else if (key == "channels") {
            std::vector<std::string> names;
            if (value.is_string()) {
                std::stringstream ss(value.get<std::string>());
                for (std::string item; std::getline(ss, item, ',');)
                    if (!item.empty())
                        names.push_back(item);
            } else if (value.is_array()) {
                for (const auto& n : value) {
                    if (!n.is_string())
                        fail("option 'channels' must list channel names as strings, got " +
                             n.dump());
                    names.push_back(n.get<std::string>());
                }
            } else {
                fail("option 'channels' must be an array of names or a comma-separated string, "
                     "got " +
                     value.dump());
            }
            o.channels = std::move(names);
        } else if (key == "bufferLimitMB") {
            o.bufferLimitBytes = parseMegabytes(value, "bufferLimitMB");
        } else {
            fail("unknown option '" + key +
                 "' (known: enable, directory, channels, bufferLimitMB)");
        }
    }
    return o;
}

TraceOptions TraceOptions::fromEnvironment() {
    const char* env = std::getenv("PVTI_OPTIONS");
    if (!env)
        return {};
    return parse(env);
}

} // namespace tilescope::capture
