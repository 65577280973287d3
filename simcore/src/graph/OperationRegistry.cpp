#include "tilescope/sim/OperationRegistry.hpp"

#include "poplar/DebugInfo.hpp"
#include "poplar/exceptions.hpp"

#include <sstream>

namespace tilescope::sim {

namespace {

// The text of a JSON string value without its quotes and escapes; other JSON as it is.
std::string unquote(const std::string& json) {
    if (json.size() < 2 || json.front() != '"' || json.back() != '"')
        return json;
    std::string out;
    for (std::size_t i = 1; i + 1 < json.size(); ++i) {
        if (json[i] == '\\' && i + 2 < json.size()) {
            const char c = json[++i];
            out += c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
        } else {
            out += json[i];
        }
    }
    return out;
}

} // namespace

std::string OperationInfo::name() const {
    for (const auto& [key, value] : values)
        if (key == "api")
            return unquote(value);
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string OperationInfo::debugJson() const {
    std::ostringstream out;
    out << '{';
    bool first = true;
    for (const auto& [key, value] : values) {
        out << (first ? "" : ",");
        first = false;
        poplar::serializeToJSON(out, poplar::ProfileValue(key));
        out << ':' << value;
    }
    out << '}';
    return out.str();
}

OperationRegistry& OperationRegistry::instance() {
    static OperationRegistry registry;
    return registry;
}

std::uint64_t OperationRegistry::add(std::uint64_t parent, std::string path, std::string layer) {
    std::lock_guard lock(mutex_);
    OperationInfo op;
    op.id = operations_.size() + 1;
    op.parent = parent;
    op.path = std::move(path);
    op.layer = std::move(layer);
    operations_.push_back(std::move(op));
    return operations_.back().id;
}

bool OperationRegistry::setValue(std::uint64_t id, std::string name, std::string value) {
    std::lock_guard lock(mutex_);
    if (id == 0 || id > operations_.size())
        throw poplar::poplar_error("DebugInfo::setValue: unknown operation id " +
                                   std::to_string(id));
    auto& values = operations_[id - 1].values;
    for (const auto& [key, existing] : values)
        if (key == name)
            return false;
    values.emplace_back(std::move(name), std::move(value));
    return true;
}

void OperationRegistry::addFlops(std::uint64_t id, std::uint64_t flops) {
    std::lock_guard lock(mutex_);
    if (id == 0 || id > operations_.size())
        return; // work done outside any operation has nobody to be attributed to
    auto& op = operations_[id - 1];
    op.flops = op.flops.value_or(0) + flops;
}

std::optional<OperationInfo> OperationRegistry::find(std::uint64_t id) const {
    std::lock_guard lock(mutex_);
    if (id == 0 || id > operations_.size())
        return std::nullopt;
    return operations_[id - 1];
}

} // namespace tilescope::sim

namespace poplar {

DebugInfo::DebugInfo(const DebugContext& debugContext, const std::string& layer)
    : path_(debugContext.getPathName()) {
    id_ = tilescope::sim::OperationRegistry::instance().add(debugContext.getId(), path_, layer);
}

bool DebugInfo::setValue(std::string name, ProfileValue value) {
    std::ostringstream json;
    serializeToJSON(json, value);
    return tilescope::sim::OperationRegistry::instance().setValue(id_, std::move(name), json.str());
}

} // namespace poplar
