/* args.c — gcc/clang driver command lines, classified as the driver does. */
#include "capture/args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

typedef VEC(char *) words;

/* Options whose value is the next argument (when not joined). */
static const char *const with_value[] = {
	"-o", "-x", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-idirafter", "-iquote", "-iprefix",
	"-iwithprefix", "-iwithprefixbefore", "-isysroot", "-imultilib", "-MF", "-MT", "-MQ", "-L", "-l", "-T",
	"-e", "-u", "-Xlinker", "-Xassembler", "-Xpreprocessor", "-Xclang", "-aux-info", "--param", "-z",
	"-target", "-arch", "--sysroot", "-dumpdir", "-dumpbase", "-dumpbase-ext", "-B", "-A", "-wrapper",
	"-G", "--target", "-MJ", "-ivfsoverlay", "-Xarch_host", "-cxx-isystem", "-iframework",
};

static bool takes_value(const char *a)
{
	for (size_t i = 0; i < sizeof with_value / sizeof *with_value; i++)
		if (strcmp(a, with_value[i]) == 0)
			return true;
	return false;
}

/* Dependency-file and temporary-file options: the native compile writes
 * those files; the bitcode compile must not touch them. */
static bool native_only(const char *a)
{
	if (strcmp(a, "-MD") == 0 || strcmp(a, "-MMD") == 0 || strcmp(a, "-MP") == 0 || strcmp(a, "-MG") == 0)
		return true;
	if (strncmp(a, "-Wp,-M", 6) == 0 || strncmp(a, "-save-temps", 11) == 0)
		return true;
	return false;
}

static const char *suffix(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *dot = strrchr(path, '.');
	return dot && (!slash || dot > slash) ? dot + 1 : "";
}

int capture_lang_of(const char *path, const char *xlang, bool cxx)
{
	if (xlang && strcmp(xlang, "none") != 0) {
		if (strncmp(xlang, "c++", 3) == 0)
			return CAPTURE_LANG_CXX;
		if (strncmp(xlang, "assembler", 9) == 0)
			return CAPTURE_LANG_ASM;
		if (strncmp(xlang, "objective-c", 11) == 0)
			return CAPTURE_LANG_OBJC;
		return CAPTURE_LANG_C;
	}
	if (strcmp(path, "-") == 0)
		return CAPTURE_LANG_STDIN;
	const char *s = suffix(path);
	if (strcmp(s, "c") == 0 || strcmp(s, "i") == 0)
		return cxx ? CAPTURE_LANG_CXX : CAPTURE_LANG_C;
	static const char *const cxx_suffixes[] = {"cc", "cp", "cxx", "cpp", "CPP", "c++", "C", "ii", "tcc"};
	for (size_t i = 0; i < sizeof cxx_suffixes / sizeof *cxx_suffixes; i++)
		if (strcmp(s, cxx_suffixes[i]) == 0)
			return CAPTURE_LANG_CXX;
	if (strcmp(s, "s") == 0 || strcmp(s, "S") == 0 || strcmp(s, "sx") == 0)
		return CAPTURE_LANG_ASM;
	if (strcmp(s, "m") == 0 || strcmp(s, "mm") == 0 || strcmp(s, "M") == 0)
		return CAPTURE_LANG_OBJC;
	return -1;
}

static void push_item(capture_cmd *cmd, capture_item_kind kind, const char *arg)
{
	capture_item it = {.kind = kind, .arg = arg};
	VEC_PUSH(&cmd->items, it);
}

/* Linker options whose value is the next linker argument (-Wl,-rpath,DIR or
 * -Wl,-rpath -Wl,DIR): that value is not an input file. */
static bool linker_takes_value(const char *o)
{
	static const char *const opts[] = {"-rpath", "-rpath-link", "-soname", "-h", "-o", "-e", "-T", "-Map", "-z",
	                                   "--version-script", "--dynamic-list", "-y", "-Y", "-m", "-a", "-assert",
	                                   "-F", "-f", "-G", "-R", "--exclude-libs", "--defsym", "-u", "--undefined",
	                                   "--wrap", "-dynamic-linker", "--dynamic-linker", "-I", "--hash-style",
	                                   "--sort-section", "-plugin", "-plugin-opt", "--script",
	                                   "--out-implib", "--retain-symbols-file", "--trace-symbol", "-L"};
	for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
		if (strcmp(o, opts[i]) == 0)
			return true;
	return false;
}

/* One linker option (from -Wl, or -Xlinker): the ones that change which
 * inputs are read. */
static void linker_option(capture_cmd *cmd, const char *o)
{
	if (strcmp(o, "--whole-archive") == 0)
		push_item(cmd, CAPTURE_ITEM_WHOLE_ON, o);
	else if (strcmp(o, "--no-whole-archive") == 0)
		push_item(cmd, CAPTURE_ITEM_WHOLE_OFF, o);
	else if (strcmp(o, "--start-group") == 0 || strcmp(o, "-(") == 0)
		push_item(cmd, CAPTURE_ITEM_GROUP_START, o);
	else if (strcmp(o, "--end-group") == 0 || strcmp(o, "-)") == 0)
		push_item(cmd, CAPTURE_ITEM_GROUP_END, o);
	else if (strcmp(o, "-Bstatic") == 0 || strcmp(o, "-dn") == 0 || strcmp(o, "-non_shared") == 0 ||
	         strcmp(o, "-static") == 0)
		push_item(cmd, CAPTURE_ITEM_STATIC, o);
	else if (strcmp(o, "-Bdynamic") == 0 || strcmp(o, "-dy") == 0 || strcmp(o, "-call_shared") == 0)
		push_item(cmd, CAPTURE_ITEM_DYNAMIC, o);
	else if (strcmp(o, "-r") == 0 || strcmp(o, "--relocatable") == 0 || strcmp(o, "-i") == 0)
		cmd->relocatable = true;
	else if (strcmp(o, "-shared") == 0 || strcmp(o, "-Bshareable") == 0)
		cmd->shared = true;
}

/* A linker option that names the entry symbol or a linker script (the
 * roots of dead-symbol stripping depend on both). -Ttext=ADDR and its kind
 * are section addresses, not scripts. */
static bool script_joined(const char *p)
{
	static const char *const sections[] = {"text", "data", "bss", "ldata", "rodata"};
	if (strncmp(p, "-T", 2) != 0 || !p[2])
		return false;
	for (size_t i = 0; i < sizeof sections / sizeof *sections; i++)
		if (strncmp(p + 2, sections[i], strlen(sections[i])) == 0)
			return false;
	return true;
}

/* The value of a pending option (the argument after `-o`, `-l`...). */
static void linker_value(capture_cmd *cmd, const char *p, int pending)
{
	switch (pending) {
	case 'u': VEC_PUSH(&cmd->undefs, p); break;
	case 'L': VEC_PUSH(&cmd->libdirs, p); break;
	case 'l': push_item(cmd, CAPTURE_ITEM_LIB, p); break;
	case 'o': cmd->output = p; break;
	case 'e': cmd->entry = p; break;
	case 'T': cmd->script = true; break;
	default: break;
	}
}

/* `--name=VALUE` (or `--name VALUE`): the pending kind, else 0. */
static int long_valued(capture_cmd *cmd, const char *p, int *pending)
{
	static const struct { const char *name; int kind; } opts[] = {
		{"--output", 'o'}, {"--library", 'l'}, {"--library-path", 'L'}, {"--entry", 'e'},
		{"--script", 'T'}, {"--default-script", 'T'}, {"--undefined", 'u'},
	};
	for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
		size_t n = strlen(opts[i].name);
		if (strncmp(p, opts[i].name, n) != 0)
			continue;
		if (p[n] == '=') {
			linker_value(cmd, p + n + 1, opts[i].kind);
			return opts[i].kind;
		}
		if (!p[n]) {
			*pending = opts[i].kind;
			return opts[i].kind;
		}
	}
	return 0;
}

/* One linker argument: a piece of -Wl,a,b,c, a -Xlinker value, or an
 * argument of a direct ld/ld.lld command line. */
static void linker_arg(capture_cmd *cmd, const char *p, int *pending)
{
	static const char short_valued[] = "uLloeT";
	if (*pending) {   /* the value of the previous linker option */
		linker_value(cmd, p, *pending);
		*pending = 0;
	} else if (p[0] == '-' && p[1] && strchr(short_valued, p[1]) && !p[2]) {
		*pending = p[1];
	} else if (!strcmp(p, "-dT")) {
		*pending = 'T';
	} else if (long_valued(cmd, p, pending)) {
		/* done */
	} else if (linker_takes_value(p)) {
		*pending = 1;
	} else if (strncmp(p, "-L", 2) == 0 && p[2]) {
		VEC_PUSH(&cmd->libdirs, p + 2);
	} else if (strncmp(p, "-l", 2) == 0 && p[2]) {
		push_item(cmd, CAPTURE_ITEM_LIB, p + 2);
	} else if (script_joined(p)) {
		cmd->script = true;
	} else if (!strcmp(p, "--version") || !strcmp(p, "-v") || !strcmp(p, "-V") || !strcmp(p, "--help")) {
		cmd->query = true;
	} else if (p[0] != '-') {
		push_item(cmd, CAPTURE_ITEM_FILE, p);
	} else {
		linker_option(cmd, p);
	}
}

static void wl_options(capture_cmd *cmd, char *list, int *pending)
{
	for (char *p = list; p && *p;) {
		char *comma = strchr(p, ',');
		if (comma)
			*comma = 0;
		linker_arg(cmd, p, pending);
		p = comma ? comma + 1 : NULL;
	}
}

/* Words of a response file, as gcc and ld split them: whitespace between
 * words, '...' and "..." quote, a backslash escapes the next character. */
static void response_words(const char *text, capture_cmd *cmd, words *out)
{
	const char *p = text;
	char *w = xmalloc(strlen(text) + 1);
	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (!*p)
			break;
		size_t n = 0;
		char quote = 0;
		for (; *p && (quote || !(*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')); p++) {
			if (*p == '\\' && p[1])
				w[n++] = *++p;
			else if (quote && *p == quote)
				quote = 0;
			else if (!quote && (*p == '\'' || *p == '"'))
				quote = *p;
			else
				w[n++] = *p;
		}
		w[n] = 0;
		char *word = xstrdup(w);
		VEC_PUSH(&cmd->owned, word);
		VEC_PUSH(out, word);
	}
	free(w);
}

/* argv with every @FILE replaced by the words of FILE (nested up to a
 * depth, as the tools do); an @FILE that cannot be read stays a word, as
 * gcc and ld keep it. The array is cmd's (freed with it). */
static char **expand_responses(capture_cmd *cmd, int *argc, char **argv, int depth)
{
	bool any = false;
	for (int i = 0; i < *argc; i++)
		any |= argv[i][0] == '@' && argv[i][1];
	if (!any || depth > 8)
		return argv;
	words out = {0};
	for (int i = 0; i < *argc; i++) {
		FILE *f = argv[i][0] == '@' && argv[i][1] ? fopen(argv[i] + 1, "rb") : NULL;
		if (!f) {
			VEC_PUSH(&out, argv[i]);
			continue;
		}
		VEC(char) text = {0};
		char buf[4096];
		size_t got;
		while ((got = fread(buf, 1, sizeof buf, f)) > 0)
			for (size_t k = 0; k < got; k++)
				VEC_PUSH(&text, buf[k] ? buf[k] : ' ');
		fclose(f);
		VEC_PUSH(&text, 0);
		response_words(text.items, cmd, &out);
		VEC_FREE(&text);
	}
	VEC_PUSH(&out, NULL);
	*argc = (int)out.len - 1;
	char **r = out.items;
	VEC_PUSH(&cmd->owned, (char *)r);
	return expand_responses(cmd, argc, r, depth + 1);
}

bool capture_is_linker_name(const char *name)
{
	/* ld, ld.bfd, ld.gold, ld.lld, ld.lld-22, x86_64-linux-gnu-ld.bfd */
	const char *p = name;
	for (const char *d; (d = strchr(p, '-')) && strncmp(p, "ld", 2) != 0;)
		p = d + 1;
	if (strncmp(p, "ld", 2) != 0)
		return false;
	p += 2;
	static const char *const kinds[] = {".bfd", ".gold", ".lld", ""};
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
		size_t n = strlen(kinds[i]);
		if (strncmp(p, kinds[i], n) != 0)
			continue;
		const char *v = p + n;
		if (!*v)
			return true;
		if (*v++ != '-' || !*v)
			continue;
		while (*v && ((*v >= '0' && *v <= '9') || *v == '.'))
			v++;
		if (!*v)
			return true;
	}
	return false;
}

void capture_ld_parse(capture_cmd *cmd, int argc, char **argv)
{
	memset(cmd, 0, sizeof *cmd);
	argv = expand_responses(cmd, &argc, argv, 0);
	int pending = 0;
	for (int i = 0; i < argc; i++)
		linker_arg(cmd, argv[i], &pending);
	bool any_input = false;
	for (size_t i = 0; i < cmd->items.len; i++)
		any_input |= cmd->items.items[i].kind == CAPTURE_ITEM_FILE || cmd->items.items[i].kind == CAPTURE_ITEM_LIB;
	cmd->mode = cmd->query || !any_input ? CAPTURE_PASS : CAPTURE_LINK;
}

void capture_cmd_parse(capture_cmd *cmd, int argc, char **argv)
{
	memset(cmd, 0, sizeof *cmd);
	argv = expand_responses(cmd, &argc, argv, 0);
	bool compile = false, pass = false, any_input = false;
	int pending = 0;   /* a linker option given through -Wl/-Xlinker awaits its value */
	const char *xlang = NULL;
	for (int i = 0; i < argc; i++) {
		char *a = argv[i];
		if (a[0] != '-' || strcmp(a, "-") == 0) {
			any_input = true;
			int lang = capture_lang_of(a, xlang, false);
			if (lang >= 0) {
				capture_source s = {.path = a, .xlang = xlang, .lang = (capture_lang)lang};
				capture_item it = {.kind = CAPTURE_ITEM_SOURCE, .arg = a, .source = (unsigned)cmd->sources.len};
				VEC_PUSH(&cmd->sources, s);
				VEC_PUSH(&cmd->items, it);
			} else {
				push_item(cmd, CAPTURE_ITEM_FILE, a);
			}
			continue;
		}
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		bool sep = takes_value(a) && v;
		if (strcmp(a, "-c") == 0) {
			compile = true;
			continue;
		}
		if (!strcmp(a, "-E") || !strcmp(a, "-S") || !strcmp(a, "-M") || !strcmp(a, "-MM") ||
		           !strcmp(a, "-fsyntax-only") || !strcmp(a, "-###") || !strncmp(a, "-print-", 7) ||
		           !strncmp(a, "--print-", 8) || !strncmp(a, "-dump", 5) || !strcmp(a, "--version") ||
		           !strcmp(a, "--help") || !strcmp(a, "--target-help")) {
			if (strncmp(a, "-dumpdir", 8) != 0 && strncmp(a, "-dumpbase", 9) != 0)
				pass = true;
		}
		if (!strcmp(a, "-o")) {
			cmd->output = v;
			i += v != NULL;
			continue;
		}
		if (!strncmp(a, "-o", 2) && a[2]) {
			cmd->output = a + 2;
			continue;
		}
		if (!strcmp(a, "-x")) {
			xlang = v;
			i += v != NULL;
			continue;
		}
		if (!strncmp(a, "-x", 2) && a[2]) {
			xlang = a + 2;
			continue;
		}
		if (!strcmp(a, "-MF") || !strcmp(a, "-MT") || !strcmp(a, "-MQ") || !strcmp(a, "-MJ")) {
			i += v != NULL;
			continue;
		}
		if (native_only(a) || (!strncmp(a, "-MF", 3) || !strncmp(a, "-MT", 3) || !strncmp(a, "-MQ", 3)))
			continue;
		if (!strcmp(a, "-l") && v) {
			push_item(cmd, CAPTURE_ITEM_LIB, v);
			any_input = true;
			i++;
			continue;
		}
		if (!strncmp(a, "-l", 2) && a[2]) {
			push_item(cmd, CAPTURE_ITEM_LIB, a + 2);
			any_input = true;
			continue;
		}
		if (!strcmp(a, "-L") && v)
			VEC_PUSH(&cmd->libdirs, v);
		else if (!strncmp(a, "-L", 2) && a[2])
			VEC_PUSH(&cmd->libdirs, a + 2);
		else if (!strcmp(a, "-u") && v)
			VEC_PUSH(&cmd->undefs, v);
		else if (!strcmp(a, "-e") && v)
			cmd->entry = v;
		else if (!strcmp(a, "-T") && v)
			cmd->script = true;
		else if (!strcmp(a, "-Xlinker") && v) {
			linker_arg(cmd, v, &pending);   /* one linker argument, commas included */
		} else if (!strncmp(a, "-Wl,", 4)) {
			/* Parsed on a copy: the flag itself is kept intact for the record. */
			char *copy = xstrdup(a + 4);
			VEC_PUSH(&cmd->owned, copy);
			wl_options(cmd, copy, &pending);
		} else if (!strcmp(a, "-shared")) {
			cmd->shared = true;
		} else if (!strcmp(a, "-r")) {
			cmd->relocatable = true;
		} else if (!strcmp(a, "-static")) {
			cmd->static_link = true;
		}
		VEC_PUSH(&cmd->flags, a);
		if (sep) {
			VEC_PUSH(&cmd->flags, argv[i + 1]);
			i++;
		}
	}
	if (pass || !any_input)
		cmd->mode = CAPTURE_PASS;
	else if (compile)
		cmd->mode = cmd->sources.len ? CAPTURE_COMPILE : CAPTURE_PASS;
	else
		cmd->mode = CAPTURE_LINK;
}

void capture_cmd_free(capture_cmd *cmd)
{
	VEC_FREE(&cmd->sources);
	VEC_FREE(&cmd->flags);
	VEC_FREE(&cmd->items);
	VEC_FREE(&cmd->libdirs);
	VEC_FREE(&cmd->undefs);
	for (size_t i = 0; i < cmd->owned.len; i++)
		free(cmd->owned.items[i]);
	VEC_FREE(&cmd->owned);
}
