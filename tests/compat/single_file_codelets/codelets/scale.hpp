// Found by the codelet compile through the "-I codelets" compile flag.
#ifndef SCALE_HPP
#define SCALE_HPP
inline int shifted(int x) { return x + 1; }
#endif
