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
 * counted errors, as any missing header's are. */
#include "source/standin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static bool ident_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
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
			while (q < end && ident_char(*q))
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

/* One template line into b. */
static void put_line(text_buf *b, const char *p, const char *end, standin_counts *c)
{
	const char *s = skip_blank(p, end);
	bool pp = s < end && *s == '#';
	const char *d = pp ? skip_blank(s + 1, end) : s;
	static const char undef[] = "undef", cm01[] = "cmakedefine01", cm[] = "cmakedefine";
	size_t kw = 0;
	if (pp && (size_t)(end - d) > 5 && strncmp(d, undef, 5) == 0 && !ident_char(d[5]))
		kw = 5;
	else if (pp && (size_t)(end - d) > 13 && strncmp(d, cm01, 13) == 0 && !ident_char(d[13]))
		kw = 13;
	else if (pp && (size_t)(end - d) > 11 && strncmp(d, cm, 11) == 0 && !ident_char(d[11]))
		kw = 11;
	if (kw) {
		const char *n = skip_blank(d + kw, end), *ne = n;
		while (ne < end && ident_char(*ne))
			ne++;
		if (!standin_switch_name(n, (size_t)(ne - n))) {
			if (kw == 5)
				put(b, p, (size_t)(end - p));   /* `#undef const`: left as written, a no-op */
			return;                           /* a #cmakedefine of another name: off */
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
	put_substituted(b, p, end, pp ? "1" : "int", &c->values);
}

bool standin_from_template(const char *path, char **text, size_t *len, standin_counts *counts, facet_error *err)
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
		put_line(&b, p, le, &c);
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
