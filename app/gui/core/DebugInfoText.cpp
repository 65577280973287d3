#include "DebugInfoText.hpp"

#include <nlohmann/json.hpp>

namespace tilescope::gui {
namespace {

using Json = nlohmann::ordered_json; // keys in the order the operation set them

bool isTensor(const Json& v) {
    return v.is_object() && v.contains("shape") && v.contains("type") &&
           v.at("shape").is_string() && v.at("type").is_string();
}

std::string tensorText(const Json& v, bool withName) {
    std::string s = v.at("type").get<std::string>() + " " + v.at("shape").get<std::string>();
    if (withName && v.contains("name") && v.at("name").is_string())
        s += " · " + v.at("name").get<std::string>();
    return s;
}

std::string scalarText(const Json& v) {
    if (v.is_string())
        return v.get<std::string>();
    return v.dump();
}

void addRows(std::vector<DebugInfoRow>& out, const std::string& key, const Json& v, int depth) {
    if (isTensor(v)) {
        out.push_back({depth, key, tensorText(v, true)});
    } else if (v.is_object()) {
        out.push_back({depth, key, v.empty() ? "{}" : ""});
        for (const auto& [k, child] : v.items())
            addRows(out, k, child, depth + 1);
    } else if (v.is_array()) {
        out.push_back({depth, key, v.empty() ? "[]" : ""});
        for (std::size_t i = 0; i < v.size(); ++i)
            addRows(out, std::to_string(i), v[i], depth + 1);
    } else {
        out.push_back({depth, key, scalarText(v)});
    }
}

/// "A: float [16, 300], B: …" for a map of arguments (short values only).
std::string argumentList(const Json& args) {
    std::string s;
    for (const auto& [k, v] : args.items()) {
        if (!s.empty())
            s += ", ";
        s += k;
        if (isTensor(v))
            s += ": " + tensorText(v, false);
        else if (!v.is_structured())
            s += ": " + scalarText(v);
    }
    return s;
}

} // namespace

std::vector<DebugInfoRow> debugInfoRows(const std::string& json) {
    std::vector<DebugInfoRow> out;
    if (json.empty())
        return out;
    const Json root = Json::parse(json, nullptr, false);
    if (root.is_discarded() || !root.is_object()) {
        out.push_back({0, "unreadable debug information", json});
        return out;
    }
    for (const auto& [key, value] : root.items())
        if (key != "api")
            addRows(out, key, value, 0);
    return out;
}

std::string debugInfoSummary(const report::OperationRecord& operation) {
    const Json root =
        Json::parse(operation.debugJson.empty() ? "{}" : operation.debugJson, nullptr, false);
    if (root.is_discarded() || !root.is_object())
        return operation.name;
    std::string s = operation.name;
    if (root.contains("args") && root.at("args").is_object())
        s += "(" + argumentList(root.at("args")) + ")";
    if (root.contains("output") && isTensor(root.at("output")))
        s += " → " + tensorText(root.at("output"), false);
    else if (root.contains("outputs") && root.at("outputs").is_object())
        s += " → (" + argumentList(root.at("outputs")) + ")";
    return s;
}

std::string debugInfoRecorded(const report::OperationRecord& operation, int formatVersion) {
    // Debug information values arrived with report format v5 (operation_debug).
    constexpr int kFirstFormatWithValues = 5;
    std::string s = "name";
    if (!operation.debugPath.empty())
        s += ", debug path";
    if (!operation.layer.empty())
        s += ", layer";
    if (operation.flops)
        s += ", FLOPs";
    if (!operation.debugJson.empty()) {
        const Json root = Json::parse(operation.debugJson, nullptr, false);
        s += ", call values";
        if (!root.is_discarded() && root.is_object() && root.contains("api") &&
            root.at("api").is_string())
            s += " (" + root.at("api").get<std::string>() + ")";
        return s;
    }
    if (formatVersion < kFirstFormatWithValues)
        return s + "; no call values: the report's format v" + std::to_string(formatVersion) +
               " predates them (v" + std::to_string(kFirstFormatWithValues) + ")";
    return s + "; no call values: the operation was created from a name only (a model layer "
               "or a DebugContext without arguments), its work is in the operations within it";
}

std::string debugInfoTooltip(const report::OperationRecord& operation) {
    std::string s = debugInfoSummary(operation);
    if (!operation.debugPath.empty())
        s += "\n" + operation.debugPath;
    if (!operation.layer.empty())
        s += " (" + operation.layer + ")";
    return s;
}

} // namespace tilescope::gui
