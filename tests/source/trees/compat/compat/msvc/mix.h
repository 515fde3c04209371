/* mix.h — a header of the tree's own in the same directory as the shim:
 * it must still resolve. */
#ifndef MIX_H
#define MIX_H
#include <stdint.h>
uint64_t mix_bits(uint64_t h);
#endif
