#pragma once
// Names attached to graph objects and programs, and the operations (DebugInfo) they belong to.
// Errors and profiles show the names; the profile's operations view attributes programs and
// variables to the DebugInfo whose id their context carries.

#include "poplar/StringRef.hpp"

#include <cstdint>
#include <string>

namespace poplar {

/// Identifies a DebugInfo (an operation); 0 means "no operation".
using DebugId = std::uint64_t;

class DebugInfo;

/// A name and the id of the operation it belongs to. PopLibs builds these from a DebugInfo
/// (`{di, "partials"}`) so that everything an operation creates carries the operation's id.
class DebugNameAndId {
public:
    DebugNameAndId(std::string name = {}, DebugId debugId = 0, std::string parentPath = {});
    DebugNameAndId(const char* name) : DebugNameAndId(std::string(name ? name : "")) {}
    DebugNameAndId(const DebugInfo& debugInfo, StringRef name = {});
    DebugNameAndId(const DebugNameAndId& parent, StringRef name);
    DebugNameAndId(const DebugNameAndId&) = default;
    DebugNameAndId& operator=(const DebugNameAndId&) = default;

    /// The slash-separated path of names from the outermost context to this one.
    const std::string& getPathName() const { return path_; }
    DebugId getId() const { return id_; }

private:
    std::string path_;
    DebugId id_ = 0;
};

/// A debug context: a path of names and the operation id inherited from its parent. Poplar's
/// DebugContext also carries a source location; the simulator keeps what errors and profiles show.
class DebugContext {
public:
    DebugContext() = default;
    DebugContext(const char* name) : name_(name ? name : "") {}
    DebugContext(std::string name) : name_(std::move(name)) {}
    DebugContext(StringRef name) : name_(name) {}
    DebugContext(const DebugContext& parent, StringRef name)
        : name_(join(parent.name_, name)), id_(parent.id_) {}
    DebugContext(const DebugNameAndId& nameAndId, StringRef name = {})
        : name_(join(nameAndId.getPathName(), name)), id_(nameAndId.getId()) {}
    DebugContext(const DebugContext&) = default;
    DebugContext& operator=(const DebugContext&) = default;

    const std::string& getPathName() const { return name_; }
    /// The operation (DebugInfo) this context belongs to, 0 when none.
    DebugId getId() const { return id_; }

    static std::string join(const std::string& parent, StringRef name) {
        if (name.empty())
            return parent;
        return parent.empty() ? std::string(name) : parent + "/" + std::string(name);
    }

private:
    std::string name_;
    DebugId id_ = 0;
};

inline DebugNameAndId::DebugNameAndId(std::string name, DebugId debugId, std::string parentPath)
    : path_(DebugContext::join(parentPath, name)), id_(debugId) {}

inline DebugNameAndId::DebugNameAndId(const DebugNameAndId& parent, StringRef name)
    : path_(DebugContext::join(parent.path_, name)), id_(parent.id_) {}

} // namespace poplar
