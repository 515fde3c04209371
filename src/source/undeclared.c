/* undeclared.c — constants a missing generated header would have declared
 * (internal.h: src_undeclared_constants).
 *
 * A configure step's header also defines values the code uses in
 * expressions (nginx's ngx_auto_config.h: NGX_OFF_T_LEN, NGX_PTR_SIZE).
 * Without it, `{ ngx_string("status"), NGX_INT_T_LEN, log_status }` is an
 * error, and clang drops the whole initializer of the table: every
 * function of it is lost, not only that element's length. So a unit whose
 * diagnostics name an undeclared identifier written like a configuration
 * constant (upper case, digits, `_`, starting with a letter) is parsed once
 * more with a header, included first, that declares each such name an
 * enumerator. An enumerator, not a macro: `#ifdef NAME` and `#if NAME`
 * read as before; only the expressions that name it become valid. Each
 * gets a value of its own, large and not 0 (FIRST_VALUE + i): two such
 * names as case labels of one switch (gdbm's GDBM_MAGIC, GDBM_NUMSYNC_MAGIC)
 * do not collide, and one as a divisor is no error. What the value stands
 * for (a length, a flag, a magic number) moves no function, so no call is
 * invented. */
#include "source/internal.h"
#include "source/standin.h"

#include <stdlib.h>
#include <string.h>

#include <clang-c/Index.h>

#include "util/strmap.h"
#include "util/vec.h"
#include "util/xalloc.h"

static const char prefix[] = "use of undeclared identifier '";

#define FIRST_VALUE 0x7f000001   /* unlikely as a literal case label; room for 2^24 names in an int */

char *src_undeclared_constants(void *tu, unsigned *n_names, char **first)
{
	CXTranslationUnit t = tu;
	VEC(char) text = {0};
	strmap seen;
	strmap_init(&seen);
	*n_names = 0;
	*first = NULL;
	unsigned n = clang_getNumDiagnostics(t);
	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(t, i);
		CXString s = clang_getDiagnosticSpelling(d);
		const char *msg = clang_getCString(s);
		const char *name = msg && strncmp(msg, prefix, sizeof prefix - 1) == 0 ? msg + sizeof prefix - 1 : NULL;
		const char *end = name ? strchr(name, '\'') : NULL;
		if (end && end - name > 1 && standin_switch_name(name, (size_t)(end - name))) {
			char *key = xmalloc((size_t)(end - name) + 1);
			memcpy(key, name, (size_t)(end - name));
			key[end - name] = 0;
			if (strmap_has(&seen, key)) {
				free(key);
			} else {
				strmap_put(&seen, key, key);
				size_t need = text.len + strlen(key) + 32;
				VEC_RESERVE(&text, need);
				text.len += (size_t)snprintf(text.items + text.len, need - text.len, "enum { %s = %u };\n", key,
				                             FIRST_VALUE + *n_names);
				if ((*n_names)++ == 0)
					*first = xstrdup(key);
			}
		}
		clang_disposeString(s);
		clang_disposeDiagnostic(d);
	}
	for (size_t i = 0; i < seen.cap; i++)
		free(seen.slots[i].value);
	strmap_free(&seen);
	return text.items;
}
