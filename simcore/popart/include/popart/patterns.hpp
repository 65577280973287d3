#pragma once
// Patterns: PopART's graph rewrites. Lowering here goes straight from ONNX nodes to PopLibs,
// so patterns are accepted and recorded; none changes the result.

#include <map>
#include <string>

namespace popart {

enum class PatternsLevel { NoPatterns = 0, Minimal, Default, All };

/// A set of named graph rewrites with their on/off state (recorded in the report).
class Patterns {
public:
    Patterns() : level_(PatternsLevel::Default) {}
    explicit Patterns(PatternsLevel level) : level_(level) {}
    PatternsLevel getLevel() const { return level_; }
    Patterns& enablePattern(const std::string& name, bool v) {
        enabled_[name] = v;
        return *this;
    }
    bool isPatternEnabled(const std::string& name) const {
        std::map<std::string, bool>::const_iterator it = enabled_.find(name);
        return it != enabled_.end() ? it->second : level_ != PatternsLevel::NoPatterns;
    }
    Patterns& enableRuntimeAsserts(bool v) {
        runtimeAsserts_ = v;
        return *this;
    }
    bool getRuntimeAssertsOn() const { return runtimeAsserts_; }
    const std::map<std::string, bool>& settings() const { return enabled_; }

private:
    PatternsLevel level_;
    std::map<std::string, bool> enabled_;
    bool runtimeAsserts_ = true;
};

} // namespace popart
