// ipu_builtins.h for codelets: the few __builtin_ipu_* functions of the IPU compiler that have a
// meaning on the host, implemented there (element-wise max and min). Builtins that read IPU
// state (cycle counters, tile ids, control registers) or drive its units (AMP, random numbers)
// are not provided: a codelet using one fails to compile with the builtin's name.
#ifndef TILESCOPE_CODELET_IPU_BUILTINS_H
#define TILESCOPE_CODELET_IPU_BUILTINS_H

#include <ipu_vector_math>

// One template each (the compiler gives __builtin_ names C linkage, so they cannot be overloaded):
// float, float2, half2 and half4 arguments, as the IPU's f32/f16 max and min instructions take.
template <typename T> inline T __builtin_ipu_max(T a, T b) { return ipu::max(a, b); }
template <typename T> inline T __builtin_ipu_min(T a, T b) { return ipu::min(a, b); }

#endif
