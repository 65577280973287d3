// ipudef.h for codelets: the IPU's scalar and short-vector types. The vector types are GCC
// vector extensions with the IPU's element layout (element 0 at the lowest address, 16-bit
// halves as IEEE binary16), so a `const half*` field can be read as `const half4*` as on the
// device. `half` is poplar::half (the type of HALF tensor elements); the elements of half2 and
// half4 are the compiler's _Float16 (__fp16 where it has none), which converts to and from float.
#ifndef TILESCOPE_CODELET_IPUDEF_H
#define TILESCOPE_CODELET_IPUDEF_H

#include <poplar/Half.hpp>

using poplar::half;

typedef float float2 __attribute__((vector_size(8)));
typedef float float4 __attribute__((vector_size(16)));
#if defined(__FLT16_MANT_DIG__)
typedef _Float16 half2 __attribute__((vector_size(4)));
typedef _Float16 half4 __attribute__((vector_size(8)));
#else
// Compilers without _Float16 on this host (Clang before 15 on x86-64): Clang's storage-only
// __fp16, which has the same layout and converts to float.
typedef __fp16 half2 __attribute__((vector_size(4)));
typedef __fp16 half4 __attribute__((vector_size(8)));
#endif
typedef int int2 __attribute__((vector_size(8)));
typedef int int4 __attribute__((vector_size(16)));
typedef unsigned int uint2 __attribute__((vector_size(8)));
typedef unsigned int uint4 __attribute__((vector_size(16)));
typedef short short2 __attribute__((vector_size(4)));
typedef short short4 __attribute__((vector_size(8)));
typedef unsigned short ushort2 __attribute__((vector_size(4)));
typedef unsigned short ushort4 __attribute__((vector_size(8)));
typedef char char2 __attribute__((vector_size(2)));
typedef char char4 __attribute__((vector_size(4)));
typedef unsigned char uchar2 __attribute__((vector_size(2)));
typedef unsigned char uchar4 __attribute__((vector_size(4)));
// The IPU is a 32-bit machine: its long is 32 bits, so long2 (what comparing two float2 gives)
// has 32-bit lanes. Codelets see the host's sizeof(long) == 8 for a plain long, though.
typedef int long2 __attribute__((vector_size(8)));
typedef unsigned int ulong2 __attribute__((vector_size(8)));

#endif
