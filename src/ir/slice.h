/* slice.h — write the definitions of a set of functions as one small module.
 *
 * `facet query slice --emit-module` hands a slice (the functions on some path
 * between two functions) to something that reads bitcode: a person, a scoped
 * points-to tool. The inputs are read and linked exactly as ingest does (so
 * linked names match the catalog's), every function outside the set loses
 * its body, and global DCE drops what nothing left refers to. The result
 * passes LLVM's verifier before it is written (util/atomic.h). The reading
 * runs in a child process (ir/guard.h), so corrupt bitcode gives an error,
 * never a crashed caller; out may replace only bitcode that is not one of
 * the inputs. */
#ifndef FACET_IR_SLICE_H
#define FACET_IR_SLICE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/error.h"

bool ir_slice_write(const char *const *inputs, unsigned n_inputs, const char *const *functions,
                    unsigned n_functions, const char *out, facet_error *err);

/* Bitcode magic (raw or wrapped) at the start of b[0..n). */
bool ir_is_bitcode(const unsigned char *b, size_t n);

#endif
