#pragma once
// Names attached to graph objects and programs; they appear in errors and profiles.

#include <string>
#include <string_view>

namespace poplar {

/// A debug name. Poplar's DebugContext also carries an id and source location; the simulator
/// keeps the name, which is what errors and profiles show.
class DebugContext {
public:
    DebugContext() = default;
    DebugContext(const char* name) : name_(name ? name : "") {}
    DebugContext(std::string name) : name_(std::move(name)) {}
    DebugContext(std::string_view name) : name_(name) {}
    DebugContext(const DebugContext& parent, std::string_view name)
        : name_(parent.name_.empty() ? std::string(name) : parent.name_ + "/" + std::string(name)) {
    }

    const std::string& getPathName() const { return name_; }

private:
    std::string name_;
};

using DebugNameAndId = DebugContext;

} // namespace poplar
