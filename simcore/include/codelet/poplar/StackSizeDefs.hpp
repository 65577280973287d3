// poplar/StackSizeDefs.hpp for codelets: the SDK's macros that tell the IPU linker how much stack
// a function or vertex needs (DEF_STACK_USAGE(bytes, function);). Vertices run on host threads
// in TileScope, whose stacks are not the tile's, so the declarations have no effect; they expand
// to a declaration that is valid wherever the SDK's are (namespace scope, followed by ';').
#ifndef TILESCOPE_CODELET_STACK_SIZE_DEFS_HPP
#define TILESCOPE_CODELET_STACK_SIZE_DEFS_HPP

#define DEF_STACK_USAGE(size, name) static_assert(true, "DEF_STACK_USAGE: no effect on the host")
#define DEF_STACK_SIZE_OWN(size, name)                                                             \
    static_assert(true, "DEF_STACK_SIZE_OWN: no effect on the host")
#define DEF_FUNC_CALL_PTRS(...) static_assert(true, "DEF_FUNC_CALL_PTRS: no effect on the host")

#endif
