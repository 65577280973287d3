#pragma once
// The SDK's header for popops::Operation, the reduction operations (declared with the
// reductions in popops/Reduction.hpp), and their text form.

#include <iosfwd>
#include <popops/Reduction.hpp>

namespace popops {

/// Writes the operation's name, e.g. "ADD", "SQUARE_ADD".
std::ostream& operator<<(std::ostream& os, const Operation& op);
/// Reads an operation name as written by operator<<; sets failbit on an unknown name.
std::istream& operator>>(std::istream& is, Operation& op);

} // namespace popops
