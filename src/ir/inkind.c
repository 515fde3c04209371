/* inkind.c — input kinds by their first bytes (inkind.h). The usual wrong
 * inputs are the build's other products: sources, objects, executables,
 * archives, and the catalog facet itself wrote. */
#include "ir/inkind.h"

#include <stdbool.h>
#include <string.h>

static bool has_suffix(const char *path, const char *suf)
{
	size_t n = path ? strlen(path) : 0, m = strlen(suf);
	return n >= m && strcmp(path + n - m, suf) == 0;
}

/* Text that reads like C: a preprocessor line or a C keyword opening a
 * line, and none of LLVM IR's top-level words. */
static bool looks_like_c(const unsigned char *b, size_t n)
{
	static const char *const ir_words[] = {"define ", "declare ", "target ", "source_filename", "; ModuleID",
	                                       "!llvm", NULL};
	static const char *const c_words[] = {"#include", "#define", "#if", "#pragma", "int ", "void ", "static ",
	                                      "struct ", "typedef ", "/*", "//", "extern ", "char ", "const ",
	                                      "unsigned ", NULL};
	bool c = false;
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && b[i - 1] != '\n')
			continue;
		while (i < n && (b[i] == ' ' || b[i] == '\t'))
			i++;
		size_t left = n - i;
		for (size_t k = 0; ir_words[k]; k++)
			if (left >= strlen(ir_words[k]) && memcmp(b + i, ir_words[k], strlen(ir_words[k])) == 0)
				return false;
		for (size_t k = 0; c_words[k] && !c; k++)
			c = left >= strlen(c_words[k]) && memcmp(b + i, c_words[k], strlen(c_words[k])) == 0;
	}
	return c;
}

ir_input_kind ir_input_kind_of(const char *path, const unsigned char *b, size_t n)
{
	if (n >= 4 && ((b[0] == 'B' && b[1] == 'C' && b[2] == 0xC0 && b[3] == 0xDE) ||
	               (b[0] == 0xDE && b[1] == 0xC0 && b[2] == 0x17 && b[3] == 0x0B)))
		return IR_INPUT_MODULE;
	if (n >= 18 && memcmp(b, "\177ELF", 4) == 0) {
		/* e_type, in the file's byte order (EI_DATA 1: little-endian) */
		unsigned type = b[5] == 2 ? (unsigned)b[16] << 8 | b[17] : (unsigned)b[17] << 8 | b[16];
		if (type == 1)
			return IR_INPUT_ELF_OBJECT;
		if (type == 3)   /* a PIE is ET_DYN too: the name tells a library */
			return strstr(path ? path : "", ".so") ? IR_INPUT_ELF_SHARED : IR_INPUT_ELF_EXECUTABLE;
		return IR_INPUT_ELF_EXECUTABLE;
	}
	if (n >= 8 && (memcmp(b, "!<arch>\n", 8) == 0 || memcmp(b, "!<thin>\n", 8) == 0))
		return IR_INPUT_ARCHIVE;
	if (n >= 16 && memcmp(b, "SQLite format 3", 16) == 0)
		return IR_INPUT_CATALOG;
	if (memchr(b, 0, n))
		return IR_INPUT_OTHER_BINARY;
	static const char *const c_ext[] = {".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".i", NULL};
	for (size_t k = 0; c_ext[k]; k++)
		if (has_suffix(path, c_ext[k]) && !has_suffix(path, ".ll"))
			return looks_like_c(b, n) || n == 0 ? IR_INPUT_C_SOURCE : IR_INPUT_MODULE;
	return looks_like_c(b, n) ? IR_INPUT_C_SOURCE : IR_INPUT_MODULE;
}

const char *ir_input_kind_advice(ir_input_kind k)
{
	switch (k) {
	case IR_INPUT_C_SOURCE:
		return "a C source file, not LLVM bitcode: compile it first (clang-22 -g -c -emit-llvm FILE.c -o "
		       "FILE.bc), or for a whole program run its build under 'facet capture -- make'";
	case IR_INPUT_ELF_OBJECT:
		return "an ELF object file (machine code, not bitcode): rebuild with clang-22 -flto -g, whose objects "
		       "are bitcode, or run the build under 'facet capture -- make' and use --capture DIR PROGRAM";
	case IR_INPUT_ELF_EXECUTABLE:
		return "an ELF executable (machine code, not bitcode): facet needs the program's bitcode; run its build "
		       "under 'facet capture -- make' and give --capture DIR PROGRAM, or link with clang-22 -flto -g "
		       "-fuse-ld=lld -Wl,--save-temps and use PROGRAM.0.0.preopt.bc";
	case IR_INPUT_ELF_SHARED:
		return "an ELF shared library (machine code, not bitcode): facet reads the bitcode of a whole program; "
		       "run its build under 'facet capture -- make'";
	case IR_INPUT_ARCHIVE:
		return "an ar archive: facet reads one linked module, not archives; run the build under 'facet capture "
		       "-- make' and use --capture DIR PROGRAM, or link the members with llvm-link-22";
	case IR_INPUT_CATALOG:
		return "an SQLite file (a facet catalog?): query it with 'facet query VERB ... --catalog FILE', draw "
		       "it with 'facet callgraph FILE --format dot --root FN' or 'facet report FILE -o DIR'; this "
		       "command reads bitcode";
	case IR_INPUT_OTHER_BINARY:   /* the parser's own "not LLVM bitcode or IR" says it */
	case IR_INPUT_MODULE:
		break;
	}
	return NULL;
}
