#pragma once
// The SDK's header defining popops::Operation: here it is declared with the reductions in
// popops/Reduction.hpp, and its text form in popops/Operation.hpp.

#include <popops/Operation.hpp>
