#pragma once
// popart::DebugContext: the name an op or tensor is created under (a string, as users pass it).

#include <string>

namespace popart {

/// A debug name given to Builder calls; converts from a string, so `"fc1"` can be passed
/// wherever a DebugContext is expected. It becomes the ONNX node's name (under the builder's
/// name scopes) and the operation's name in the report.
class DebugContext {
public:
    DebugContext() = default;
    DebugContext(const char* name) : name_(name ? name : "") {}
    DebugContext(const std::string& name) : name_(name) {}
    const std::string& getPathName() const { return name_; }
    bool empty() const { return name_.empty(); }

private:
    std::string name_;
};

} // namespace popart
