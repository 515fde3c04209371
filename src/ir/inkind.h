/* inkind.h — what an input file is when it is not LLVM bitcode or IR, so
 * the message can say what to do instead of repeating the parser's "expected
 * top-level entity". Reads bytes only (no LLVM). */
#ifndef FACET_IR_INKIND_H
#define FACET_IR_INKIND_H

#include <stddef.h>

typedef enum ir_input_kind {
	IR_INPUT_MODULE,           /* bitcode, wrapped bitcode, or text that may be IR */
	IR_INPUT_C_SOURCE,         /* C (or C++) source or a header */
	IR_INPUT_ELF_OBJECT,       /* ELF relocatable (.o) */
	IR_INPUT_ELF_EXECUTABLE,   /* ELF executable or position-independent executable */
	IR_INPUT_ELF_SHARED,       /* ELF shared library */
	IR_INPUT_ARCHIVE,          /* ar archive (.a) */
	IR_INPUT_CATALOG,          /* an SQLite file: a facet catalog, most likely */
	IR_INPUT_OTHER_BINARY,     /* none of these, not text */
} ir_input_kind;

/* The kind of the file whose first n bytes are b, named path (its
 * extension breaks ties: a .c file of plain text is C). */
ir_input_kind ir_input_kind_of(const char *path, const unsigned char *b, size_t n);

/* A sentence for kind k saying what the file is and what to do ("a C
 * source file, not LLVM bitcode: compile it first ..."), NULL for
 * IR_INPUT_MODULE and IR_INPUT_OTHER_BINARY (the parser's message then
 * stands). Static text. */
const char *ir_input_kind_advice(ir_input_kind k);

#endif
