// Included by the codelets through popc's -I flag.
#ifndef PARAMS_HPP
#define PARAMS_HPP
#ifndef OFFSET
#error "build with -D OFFSET=..."
#endif
#endif
