#pragma once
#include <string_view>

namespace poplar {
/// Poplar's non-owning string argument type.
using StringRef = std::string_view;
} // namespace poplar
