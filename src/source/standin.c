/* standin.c — a missing generated header stood in by its template
 * (standin.h).
 *
 * An unbuilt tree lacks the headers its configure step writes (config.h,
 * jconfig.h, gdbm.h), but usually holds their templates: autoheader's
 * `config.h.in` (`#undef HAVE_X` for each switch), CMake's
 * `configure_file` input (`#cmakedefine X`, `#cmakedefine01 X`, `@VAR@`,
 * `${VAR}`). Without the header, code under `#if HAVE_X` is never parsed
 * and its calls are lost; with every switch on, more code is parsed than
 * one build compiles, which is the side a call graph that must not infer
 * safety errs on. Only names written like configuration switches (upper
 * case, digits, `_`, not starting with `_`) are turned on: an autoconf
 * `#undef const` or `#undef off_t` stays a no-op, reserved names such as
 * `_FILE_OFFSET_BITS` stay the system's. A value placeholder becomes `1`
 * on a preprocessor line and `int` elsewhere (`typedef @COUNT_T@ count_t;`);
 * a macro whose value is not a number (`#define INLINE @INLINE@` made
 * `1`) can still break the declarations using it: those are the unit's
 * counted errors, as any missing header's are.
 *
 * Two checks configure makes are cheap and certain on the host facet runs
 * on, and are made as configure would (unless turned off): a size switch
 * SIZEOF_T (AC_CHECK_SIZEOF, CMake's CHECK_TYPE_SIZE: SIZEOF_OFF_T,
 * SIZEOF_VOID_P) is the host's size of that type, not 1 (gdbm's
 * `#error "Unsupported off_t size"` in every unit); a header switch
 * HAVE_P_H (AC_CHECK_HEADERS) stays off when the host has no header it
 * can name (<p.h>, any `_` of P read as `/` or `_`), so another
 * platform's branch (HAVE_WINDOWS_H) is not taken. */
#include "source/standin.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <wchar.h>

#include "util/cident.h"
#include "util/fsio.h"
#include "util/vec.h"
#include "util/xalloc.h"

#define MAX_TEMPLATE_BYTES (4u << 20)

typedef VEC(char) text_buf;

static void put(text_buf *b, const char *s, size_t n)
{
	VEC_RESERVE(b, b->len + n + 1);
	memcpy(b->items + b->len, s, n);
	b->len += n;
	b->items[b->len] = 0;
}

bool standin_switch_name(const char *s, size_t n)
{
	if (n == 0 || !(s[0] >= 'A' && s[0] <= 'Z'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

static const char *skip_blank(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* ---- what configure would find on this host ------------------------------------------------ */

/* The sizes AC_CHECK_SIZEOF / CHECK_TYPE_SIZE would measure, by the name's
 * suffix (SIZEOF_OFF_T): this host's, as the compiler of facet has them. */
static const struct { const char *type; unsigned size; } host_sizes[] = {
	{"CHAR", sizeof(char)}, {"SHORT", sizeof(short)}, {"INT", sizeof(int)}, {"LONG", sizeof(long)},
	{"LONG_LONG", sizeof(long long)}, {"UNSIGNED_CHAR", sizeof(unsigned char)},
	{"UNSIGNED_SHORT", sizeof(unsigned short)}, {"UNSIGNED_INT", sizeof(unsigned)},
	{"UNSIGNED_LONG", sizeof(unsigned long)}, {"UNSIGNED_LONG_LONG", sizeof(unsigned long long)},
	{"VOID_P", sizeof(void *)}, {"VOIDP", sizeof(void *)}, {"CHAR_P", sizeof(char *)},
	{"SIZE_T", sizeof(size_t)}, {"SSIZE_T", sizeof(ssize_t)}, {"OFF_T", sizeof(off_t)},
	{"TIME_T", sizeof(time_t)}, {"PTRDIFF_T", sizeof(ptrdiff_t)}, {"INTMAX_T", sizeof(intmax_t)},
	{"UINTMAX_T", sizeof(uintmax_t)}, {"INTPTR_T", sizeof(intptr_t)}, {"UINTPTR_T", sizeof(uintptr_t)},
	{"WCHAR_T", sizeof(wchar_t)}, {"FLOAT", sizeof(float)}, {"DOUBLE", sizeof(double)},
	{"LONG_DOUBLE", sizeof(long double)}, {"INT64_T", sizeof(int64_t)}, {"UINT64_T", sizeof(uint64_t)},
};

/* The host's size for a switch SIZEOF_T, 0 when the name is no such switch. */
static unsigned host_size(const char *n, size_t len)
{
	if (len <= 7 || strncmp(n, "SIZEOF_", 7) != 0)
		return 0;
	for (size_t i = 0; i < sizeof host_sizes / sizeof *host_sizes; i++)
		if (strlen(host_sizes[i].type) == len - 7 && strncmp(n + 7, host_sizes[i].type, len - 7) == 0)
			return host_sizes[i].size;
	return 0;
}

/* The headers the compiler itself provides (C11 freestanding): present on any host. */
static const char *const freestanding[] = {
	"float.h", "iso646.h", "limits.h", "stdalign.h", "stdarg.h", "stdbool.h", "stddef.h", "stdint.h",
	"stdnoreturn.h", "stdatomic.h",
};

static bool system_header(const char *h)
{
	static const char *const dirs[] = {
		"/usr/local/include",
#if defined(__x86_64__)
		"/usr/include/x86_64-linux-gnu",
#elif defined(__aarch64__)
		"/usr/include/aarch64-linux-gnu",
#endif
		"/usr/include",
	};
	for (size_t i = 0; i < sizeof freestanding / sizeof *freestanding; i++)
		if (strcmp(h, freestanding[i]) == 0)
			return true;
	char path[512];
	struct stat st;
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
		snprintf(path, sizeof path, "%s/%s", dirs[i], h);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			return true;
	}
	return false;
}

/* For a switch HAVE_P_H (AC_CHECK_HEADERS' name of <p.h>, each `/`, `.`
 * or `_` of the path written `_`): whether this host has a header it can
 * name, trying `/` and `_` at every `_` of P; true also when the name is
 * no such switch or has too many `_` to try. */
static bool host_has_header(const char *n, size_t len)
{
	if (len <= 7 || strncmp(n, "HAVE_", 5) != 0 || strncmp(n + len - 2, "_H", 2) != 0)
		return true;
	char p[128];
	size_t m = len - 7, unders = 0;
	if (m + 3 > sizeof p)
		return true;
	for (size_t i = 0; i < m; i++) {
		char c = n[5 + i];
		p[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
		unders += c == '_';
	}
	memcpy(p + m, ".h", 3);
	if (unders > 4)
		return true;
	for (unsigned mask = 0; mask < (1u << unders); mask++) {
		unsigned k = 0;
		for (size_t i = 0; i < m; i++)
			if (n[5 + i] == '_')
				p[i] = (mask >> k++) & 1 ? '/' : '_';
		if (system_header(p))
			return true;
	}
	return false;
}

/* The line [p, end) with @VAR@ and ${VAR} replaced by `value`. */
static void put_substituted(text_buf *b, const char *p, const char *end, const char *value, unsigned *n_values)
{
	while (p < end) {
		const char *q = p;
		size_t open = 0;
		if (*p == '@')
			open = 1;
		else if (*p == '$' && p + 1 < end && p[1] == '{')
			open = 2;
		if (open) {
			q = p + open;
			while (q < end && c_ident_char(*q))
				q++;
			char close = open == 1 ? '@' : '}';
			if (q > p + open && q < end && *q == close) {
				put(b, value, strlen(value));
				(*n_values)++;
				p = q + 1;
				continue;
			}
		}
		put(b, p, 1);
		p++;
	}
}

/* `#define NAME <size>` for a switch SIZEOF_T of a type this host has a size for. */
static bool put_host_size(text_buf *b, const char *n, size_t len, standin_counts *c)
{
	unsigned size = host_size(n, len);
	if (!size)
		return false;
	char v[32];
	put(b, "#define ", 8);
	put(b, n, len);
	snprintf(v, sizeof v, " %u", size);
	put(b, v, strlen(v));
	c->host++;
	return true;
}

/* `#define SIZEOF_T @VAR@` (a CMake template's measured size): the host's size. */
static bool host_define(text_buf *b, const char *d, const char *end, standin_counts *c)
{
	if ((size_t)(end - d) <= 7 || strncmp(d, "define", 6) != 0 || c_ident_char(d[6]))
		return false;
	const char *n = skip_blank(d + 6, end), *ne = n;
	while (ne < end && c_ident_char(*ne))
		ne++;
	const char *v = skip_blank(ne, end);
	if (v >= end || (*v != '@' && *v != '$'))
		return false;
	return put_host_size(b, n, (size_t)(ne - n), c);
}

/* One template line into b; with host, SIZEOF_T from the host and HAVE_P_H
 * only when the host has <p.h>. */
static void put_line(text_buf *b, const char *p, const char *end, bool host, standin_counts *c)
{
	const char *s = skip_blank(p, end);
	bool pp = s < end && *s == '#';
	const char *d = pp ? skip_blank(s + 1, end) : s;
	static const char undef[] = "undef", cm01[] = "cmakedefine01", cm[] = "cmakedefine";
	size_t kw = 0;
	if (pp && (size_t)(end - d) > 5 && strncmp(d, undef, 5) == 0 && !c_ident_char(d[5]))
		kw = 5;
	else if (pp && (size_t)(end - d) > 13 && strncmp(d, cm01, 13) == 0 && !c_ident_char(d[13]))
		kw = 13;
	else if (pp && (size_t)(end - d) > 11 && strncmp(d, cm, 11) == 0 && !c_ident_char(d[11]))
		kw = 11;
	if (kw) {
		const char *n = skip_blank(d + kw, end), *ne = n;
		while (ne < end && c_ident_char(*ne))
			ne++;
		if (!standin_switch_name(n, (size_t)(ne - n))) {
			if (kw == 5)
				put(b, p, (size_t)(end - p));   /* `#undef const`: left as written, a no-op */
			return;                           /* a #cmakedefine of another name: off */
		}
		if (host && put_host_size(b, n, (size_t)(ne - n), c))
			return;
		if (host && !host_has_header(n, (size_t)(ne - n))) {
			static const char off[] = "/* off: this host has no such header */";
			put(b, off, sizeof off - 1);
			c->host_off++;
			return;
		}
		put(b, "#define ", 8);
		put(b, n, (size_t)(ne - n));
		const char *rest = skip_blank(ne, end);
		if (kw == 11 && rest < end && !(rest[0] == '/' && rest + 1 < end && (rest[1] == '*' || rest[1] == '/'))) {
			put(b, " ", 1);
			put_substituted(b, rest, end, "1", &c->values);
		} else {
			put(b, " 1", 2);
		}
		c->switches++;
		return;
	}
	if (pp && host && host_define(b, d, end, c))
		return;
	put_substituted(b, p, end, pp ? "1" : "int", &c->values);
}

bool standin_from_template(const char *path, bool host, char **text, size_t *len, standin_counts *counts,
                           facet_error *err)
{
	char *in;
	size_t n;
	if (!fsio_read_file(path, MAX_TEMPLATE_BYTES, "the header template", &in, &n, err))
		return false;
	if (memchr(in, 0, n)) {
		error_set(err, "%s: not a header template (it holds binary data)", path);
		free(in);
		return false;
	}
	text_buf b = {0};
	standin_counts c = {0};
	char head[4200];
	snprintf(head, sizeof head, "/* facet source: stood in for a missing generated header by %s */\n", path);
	put(&b, head, strlen(head));
	for (const char *p = in, *end = in + n; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		put_line(&b, p, le, host, &c);
		put(&b, "\n", 1);
		p = nl ? nl + 1 : end;
	}
	free(in);
	*text = b.items;
	*len = b.len;
	*counts = c;
	return true;
}

const char *standin_header_of(const char *template_path, size_t *len)
{
	static const char *const suffixes[] = {".cmake.in", ".in", ".cmake"};
	size_t n = strlen(template_path);
	for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
		size_t s = strlen(suffixes[i]);
		if (n > s + 2 && strcmp(template_path + n - s, suffixes[i]) == 0 &&
		    strncmp(template_path + n - s - 2, ".h", 2) == 0) {
			*len = n - s;
			return template_path;
		}
	}
	return NULL;
}
