#pragma once
// String key/value options for engines and targets.

#include <initializer_list>
#include <map>
#include <string>
#include <utility>

namespace poplar {

/// A set of option names and string values. Unknown names are rejected by the consumer (Engine
/// throws invalid_option), not here, because the same flags may be meant for several consumers.
class OptionFlags {
public:
    using initializer_list = std::initializer_list<std::pair<const std::string, std::string>>;
    using const_iterator = std::map<std::string, std::string>::const_iterator;

    OptionFlags() = default;
    OptionFlags(initializer_list init) : values_(init) {}

    void set(const std::string& option, const std::string& value) { values_[option] = value; }
    void set(initializer_list list) {
        for (const auto& kv : list)
            values_[kv.first] = kv.second;
    }
    /// The value, or an empty string when the option is not set.
    const std::string& at(const std::string& option) const;
    bool has(const std::string& option) const { return values_.count(option) != 0; }
    void remove(const std::string& option) { values_.erase(option); }
    void clear() { values_.clear(); }
    bool empty() const { return values_.empty(); }
    std::size_t size() const { return values_.size(); }
    const_iterator begin() const { return values_.begin(); }
    const_iterator end() const { return values_.end(); }

private:
    std::map<std::string, std::string> values_;
};

} // namespace poplar
