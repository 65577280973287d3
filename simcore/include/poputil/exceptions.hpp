#pragma once
// The PopLibs exception type.

#include "poplar/exceptions.hpp"

#include <string>

namespace poputil {

/// What PopLibs functions throw when their arguments are wrong (shapes, types, options) or an
/// operation is not supported; `type` is "poplibs_error". The SDK derives it from
/// std::runtime_error alone; here it is also a poplar::poplar_error, so handlers written for
/// either (or for std::runtime_error) catch it.
struct poplibs_error : poplar::poplar_error {
    explicit poplibs_error(const std::string& message) : poplar_error("poplibs_error", message) {}
    explicit poplibs_error(const char* message)
        : poplar_error("poplibs_error", std::string(message ? message : "")) {}
};

} // namespace poputil
