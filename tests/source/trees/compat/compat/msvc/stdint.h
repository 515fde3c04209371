/* stdint.h for a compiler that has none (the C99 shim a portable tree
 * carries for an old MSVC): not C that clang on this system accepts, and
 * never what a build here includes, since the system's stdint.h is found
 * first by every build that does not name this directory. */
#ifndef COMPAT_STDINT_H
#define COMPAT_STDINT_H
typedef unsigned __int64 uint64_t;
typedef __int64 int64_t;
#endif
