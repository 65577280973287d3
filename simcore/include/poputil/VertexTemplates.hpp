#pragma once
// poputil::templateVertex: the name of a vertex class template instance, e.g.
// templateVertex("popops::ScaledAdd", FLOAT) == "popops::ScaledAdd<float>".

#include <poplar/Type.hpp>
#include <sstream>
#include <string>

namespace poputil {

namespace detail {
inline void appendTemplateArgument(std::ostringstream& os, const poplar::Type& t) {
    os << t.toString();
}
inline void appendTemplateArgument(std::ostringstream& os, bool b) {
    os << (b ? "true" : "false");
}
template <typename T> void appendTemplateArgument(std::ostringstream& os, const T& value) {
    os << value;
}
inline void appendTemplateArgumentList(std::ostringstream&, bool) {}
template <typename T, typename... Rest>
void appendTemplateArgumentList(std::ostringstream& os, bool first, const T& value,
                                const Rest&... rest) {
    if (!first)
        os << ',';
    appendTemplateArgument(os, value);
    appendTemplateArgumentList(os, false, rest...);
}
} // namespace detail

/// `name<arg1,arg2,...>`; Types print as their names, booleans as true/false.
template <typename... Args> std::string templateVertex(const std::string& name, Args&&... args) {
    std::ostringstream os;
    os << name << '<';
    detail::appendTemplateArgumentList(os, true, args...);
    os << '>';
    return os.str();
}

} // namespace poputil
