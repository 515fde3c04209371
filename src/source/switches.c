/* switches.c — configuration switches (switches.h).
 *
 * A switch is a name some conditional of the tree tests (`#if (NGX_HAVE_EPOLL)`,
 * `#ifdef BMP_SUPPORTED`, `#elif defined(USE_X)`) that
 *   - no file of the tree #defines (an include guard, a name a header
 *     derives from others: those are the code's own, and the first parse
 *     already reads them as the code sets them), no template switches (its
 *     stand-in decides it: standin.c) and no -D of the user gives;
 *   - is written like a configuration name: upper case, digits, `_`, a
 *     letter first (standin_switch_name). That leaves out the
 *     implementation's reserved names (`__linux__`, `_WIN32`, `__GNUC__`)
 *     and the compiler's lower-case predefines (`linux`, `unix`);
 *   - names no other platform than the host's: a word of it (split at `_`)
 *     is not WIN32, MSDOS, DARWIN, FREEBSD, ... (`platforms` below). On with
 *     the rest, such a switch would pick another system's branch of an
 *     `#if A ... #elif B` chain (nginx's `#if (NGX_FREEBSD) ... #elif
 *     (NGX_LINUX)`) and its headers, which this host lacks;
 *   - is no debugging switch (a word DEBUG or DEBUGGING: libxml2's
 *     DEBUG_PUSH, nginx's NGX_DEBUG): a developer's diagnostic build, which
 *     no configuration a program ships in turns on; on, its tracing code
 *     was most of what the second parse added to libxml2 (1,730 indirect
 *     sites calling xmlGenericError, every one open).
 * A name some conditional uses as a function-like macro (`#if
 * GCC_VERSION(4, 2)`) is left alone: defining it as a value
 * would make the directive an error. Directives are read line by line
 * (continuations joined, comments dropped); what a switch's value is
 * (`1`, as `-D NAME` gives) matters only to `#if NAME == 4`, which stays
 * as false as without it. */
#include "source/switches.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/standin.h"
#include "util/cident.h"
#include "util/xalloc.h"

void switches_init(src_switches *s)
{
	memset(s, 0, sizeof *s);
	strmap_init(&s->tested);
	strmap_init(&s->defined);
	strmap_init(&s->called);
	strmap_init(&s->on);
	strmap_init(&s->testing);
}

static void put_name(strmap *m, const char *p, size_t n)
{
	char buf[256];
	if (n == 0 || n >= sizeof buf)
		return;
	memcpy(buf, p, n);
	buf[n] = 0;
	if (!strmap_has(m, buf))
		strmap_put(m, xstrdup(buf), NULL);
}

typedef VEC(char) chars;

/* One logical line from p (continuations joined, comments dropped) into
 * out; returns where the next line starts. *in_comment carries a block
 * comment across lines. */
static const char *logical_line(const char *p, const char *end, chars *out, bool *in_comment)
{
	VEC_CLEAR(out);
	while (p < end) {
		if (*in_comment) {
			if (p + 1 < end && p[0] == '*' && p[1] == '/') {
				*in_comment = false;
				p += 2;
				VEC_PUSH(out, ' ');
			} else if (*p++ == '\n' && out->len) {
				break;   /* a directive ends at its line, even inside a comment */
			}
			continue;
		}
		if (p + 1 < end && p[0] == '/' && p[1] == '*') {
			*in_comment = true;
			p += 2;
			continue;
		}
		if (p + 1 < end && p[0] == '/' && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
			continue;
		}
		if (*p == '\\' && p + 1 < end && p[1] == '\n') {
			p += 2;
			continue;
		}
		if (*p == '\\' && p + 2 < end && p[1] == '\r' && p[2] == '\n') {
			p += 3;
			continue;
		}
		if (*p == '\n') {
			p++;
			break;
		}
		VEC_PUSH(out, *p++);
	}
	VEC_PUSH(out, 0);
	return p;
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v')
		p++;
	return p;
}

static bool word_is(const char *p, size_t n, const char *w)
{
	return strlen(w) == n && strncmp(p, w, n) == 0;
}

/* The names a conditional's expression tests, appended to names
 * ("\x01NAME" each) and into s->tested. */
static void tested_names(src_switches *s, const char *p, chars *names)
{
	while (*p) {
		if (*p >= '0' && *p <= '9') {   /* a number with its suffix: 0x10UL */
			while (c_ident_char(*p) || *p == '.')
				p++;
			continue;
		}
		if (*p == '\'' || *p == '"') {
			char q = *p++;
			while (*p && *p != q)
				p += *p == '\\' && p[1] ? 2 : 1;
			if (*p)
				p++;
			continue;
		}
		if (!c_ident_start(*p)) {
			p++;
			continue;
		}
		const char *b = p;
		while (c_ident_char(*p))
			p++;
		size_t n = (size_t)(p - b);
		if (word_is(b, n, "defined") || word_is(b, n, "__has_include") || word_is(b, n, "__has_include_next"))
			continue;
		if (!standin_switch_name(b, n))
			continue;   /* not a configuration name */
		if (*skip_blank(p) == '(') {
			put_name(&s->called, b, n);   /* a function-like macro (a version test) */
			continue;
		}
		put_name(&s->tested, b, n);
		VEC_PUSH(names, '\x01');
		for (size_t i = 0; i < n; i++)
			VEC_PUSH(names, b[i]);
	}
}

void switches_scan(src_switches *s, const char *text, size_t len, bool is_template, unsigned long long dev,
                   unsigned long long ino)
{
	chars line = {0}, names = {0};
	char id[64];
	int k = snprintf(id, sizeof id, "%llu:%llu", dev, ino);
	for (int i = 0; i < k; i++)
		VEC_PUSH(&names, id[i]);
	size_t base = names.len;
	bool in_comment = false;
	for (const char *p = text, *end = text + len; p < end;) {
		p = logical_line(p, end, &line, &in_comment);
		const char *q = skip_blank(line.items);
		if (*q != '#')
			continue;
		q = skip_blank(q + 1);
		const char *w = q;
		while (c_ident_char(*q))
			q++;
		size_t n = (size_t)(q - w);
		q = skip_blank(q);
		if (word_is(w, n, "if") || word_is(w, n, "ifdef") || word_is(w, n, "ifndef") || word_is(w, n, "elif") ||
		    word_is(w, n, "elifdef") || word_is(w, n, "elifndef")) {
			if (!is_template)
				tested_names(s, q, &names);
		} else if (word_is(w, n, "define") || (is_template && (word_is(w, n, "undef") ||
		                                                       word_is(w, n, "cmakedefine") ||
		                                                       word_is(w, n, "cmakedefine01")))) {
			const char *b = q;
			while (c_ident_char(*q))
				q++;
			put_name(&s->defined, b, (size_t)(q - b));
		}
	}
	if (names.len > base) {
		VEC_PUSH(&names, 0);
		VEC_PUSH(&s->file_names, names.items);
	} else {
		VEC_FREE(&names);
	}
	VEC_FREE(&line);
}

void switches_define(src_switches *s, const char *def)
{
	size_t n = strcspn(def, "=");
	put_name(&s->defined, def, n);
}

/* Other platforms than this host's, as a word of a switch's name spells
 * them. The host's own (this build's predefines) is no foreign one. */
static const struct platform {
	const char *word;
	bool host;
} platforms[] = {
	{"WIN", false}, {"WIN16", false}, {"WIN32", false}, {"WIN64", false}, {"WINDOWS", false},
	{"WINNT", false}, {"WINCE", false}, {"WINSOCK", false}, {"WINSOCK2", false}, {"MSDOS", false},
	{"DOS", false}, {"DJGPP", false}, {"OS2", false}, {"CYGWIN", false}, {"MINGW", false}, {"MINGW32", false},
	{"MINGW64", false}, {"MSVC", false}, {"VMS", false}, {"OPENVMS", false}, {"AMIGA", false},
	{"AMIGAOS", false}, {"BEOS", false}, {"HAIKU", false}, {"RISCOS", false}, {"SYMBIAN", false},
	{"VXWORKS", false}, {"ZOS", false}, {"MVS", false}, {"OS390", false}, {"OS400", false},
	{"TANDEM", false}, {"NONSTOP", false}, {"NETWARE", false}, {"WASI", false}, {"EMSCRIPTEN", false},
	{"QNX", false}, {"AIX", false}, {"HPUX", false}, {"IRIX", false}, {"ULTRIX", false}, {"OSF1", false},
	{"TRU64", false}, {"UNICOS", false}, {"NEXTSTEP", false}, {"SCO", false}, {"UNIXWARE", false},
	{"INTERIX", false}, {"MINIX", false}, {"PLAN9", false}, {"ANDROID", false}, {"FUCHSIA", false},
#if defined(__APPLE__)
	{"DARWIN", true}, {"APPLE", true}, {"MACOS", true}, {"MACOSX", true}, {"OSX", true}, {"IOS", true},
#else
	{"DARWIN", false}, {"APPLE", false}, {"MACOS", false}, {"MACOSX", false}, {"OSX", false}, {"IOS", false},
#endif
#if defined(__FreeBSD__)
	{"FREEBSD", true},
#else
	{"FREEBSD", false},
#endif
	{"NETBSD", false}, {"OPENBSD", false}, {"DRAGONFLY", false}, {"DRAGONFLYBSD", false},
#if defined(__sun)
	{"SOLARIS", true}, {"SUNOS", true},
#else
	{"SOLARIS", false}, {"SUNOS", false},
#endif
#if defined(__linux__)
	{"LINUX", true},
#else
	{"LINUX", false},
#endif
};

bool switches_foreign(const char *name)
{
	for (const char *p = name; *p;) {
		size_t n = strcspn(p, "_");
		for (size_t i = 0; i < sizeof platforms / sizeof *platforms; i++)
			if (!platforms[i].host && word_is(p, n, platforms[i].word))
				return true;
		p += n;
		while (*p == '_')
			p++;
	}
	return false;
}

bool switches_debug(const char *name)
{
	for (const char *p = name; *p;) {
		size_t n = strcspn(p, "_");
		if (word_is(p, n, "DEBUG") || word_is(p, n, "DEBUGGING"))
			return true;
		p += n;
		while (*p == '_')
			p++;
	}
	return false;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void switches_finish(src_switches *s)
{
	VEC(const char *) on = {0};
	for (size_t i = 0; i < s->tested.cap; i++) {
		const char *name = s->tested.slots[i].key;
		if (name && !strmap_has(&s->defined, name) && !strmap_has(&s->called, name) && !switches_foreign(name) &&
		    !switches_debug(name)) {
			VEC_PUSH(&on, name);
			strmap_put(&s->on, name, NULL);
		}
	}
	if (on.len > 1)
		qsort(on.items, on.len, sizeof *on.items, str_cmp);
	chars text = {0};
	for (size_t i = 0; i < on.len; i++) {
		char buf[300];
		int k = snprintf(buf, sizeof buf, "#define %s 1\n", on.items[i]);
		for (int j = 0; j < k; j++)
			VEC_PUSH(&text, buf[j]);
	}
	s->n = (unsigned)on.len;
	s->first = on.len ? on.items[0] : NULL;
	if (text.len) {
		VEC_PUSH(&text, 0);
		s->header = text.items;
	}
	VEC_FREE(&on);
	for (size_t i = 0; i < s->file_names.len; i++) {
		char *rec = s->file_names.items[i];
		char *sep = strchr(rec, '\x01');
		bool tests = false;
		for (char *p = sep; p && !tests;) {
			char *next = strchr(p + 1, '\x01');
			size_t n = next ? (size_t)(next - p - 1) : strlen(p + 1);
			char buf[256];
			if (n < sizeof buf) {
				memcpy(buf, p + 1, n);
				buf[n] = 0;
				tests = strmap_has(&s->on, buf);
			}
			p = next;
		}
		if (tests && sep) {
			*sep = 0;
			if (!strmap_has(&s->testing, rec))
				strmap_put(&s->testing, xstrdup(rec), NULL);
		}
		free(rec);
	}
	VEC_FREE(&s->file_names);
}

bool switches_file_tests(const src_switches *s, unsigned long long dev, unsigned long long ino)
{
	char id[64];
	snprintf(id, sizeof id, "%llu:%llu", dev, ino);
	return strmap_has(&s->testing, id);
}

bool switches_is(const src_switches *s, const char *name)
{
	return strmap_has(&s->on, name);
}

void switches_free(src_switches *s)
{
	for (size_t i = 0; i < s->file_names.len; i++)
		free(s->file_names.items[i]);
	VEC_FREE(&s->file_names);
	strmap *owned[] = {&s->tested, &s->defined, &s->called, &s->testing};
	for (size_t k = 0; k < 4; k++) {
		for (size_t i = 0; i < owned[k]->cap; i++)
			free((char *)owned[k]->slots[i].key);
		strmap_free(owned[k]);
	}
	strmap_free(&s->on);
	free(s->header);
	memset(s, 0, sizeof *s);
}
