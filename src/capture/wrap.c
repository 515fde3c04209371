/* wrap.c — one observed compiler invocation: native run, bitcode, records. */
#include "capture/wrap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "capture/args.h"
#include "capture/binfile.h"
#include "capture/hash.h"
#include "capture/record.h"
#include "capture/resolve.h"
#include "capture/rewrite.h"
#include "capture/spawn.h"
#include "util/atomic.h"
#include "util/xalloc.h"

typedef VEC(char *) strvec;

/* One source's bitcode compile: the outcome the unit record keeps. */
typedef struct bitcode {
	char tmp[4200];            /* DIR/tmp/PID-I.bc */
	bool ok;
	char *failure;             /* why there is no bitcode */
	strvec dropped;            /* flags clang rejected */
	strvec args;               /* the bitcode compile's command line */
	strvec prelink;            /* the optimizer's, less its input and output (capture/prelink.h) */
} bitcode;

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* PATH without DIR/bin, so the real compiler and everything it runs never
 * meet the wrapper again. */
static void clean_path(const char *bin)
{
	const char *path = getenv("PATH");
	if (!path || !bin)
		return;
	char *out = xmalloc(strlen(path) + 1), *o = out;
	const char *p = path;
	while (*p) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		if (!(len == strlen(bin) && strncmp(p, bin, len) == 0)) {
			if (o != out)
				*o++ = ':';
			memcpy(o, p, len);
			o += len;
		}
		p += len + (colon != NULL);
	}
	*o = 0;
	setenv("PATH", out, 1);
	free(out);
}

static void split_words(const char *s, strvec *out)
{
	char *copy = xstrdup(s), *save = NULL;
	for (char *w = strtok_r(copy, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
		VEC_PUSH(out, xstrdup(w));
	free(copy);
}

static void strvec_free(strvec *v)
{
	for (size_t i = 0; i < v->len; i++)
		free(v->items[i]);
	VEC_FREE(v);
}

/* "clang: error: unknown argument: '-fno-foo'" and its variants: the flag. */
static bool rejected_flag(const char *line, const capture_cmd *cmd, const strvec *dropped, const char **flag)
{
	static const char *const forms[] = {"unknown argument: '", "unknown argument '", "unsupported option '",
	                                    "unsupported argument '", "unknown warning option '"};
	for (size_t f = 0; f < sizeof forms / sizeof *forms; f++) {
		const char *p = strstr(line, forms[f]);
		if (!p)
			continue;
		p += strlen(forms[f]);
		const char *q = strchr(p, '\'');
		if (!q)
			continue;
		size_t len = (size_t)(q - p);
		const char *opt = NULL;   /* "unsupported argument 'V' to option '-X'" names the option apart */
		if (f == 3 && (opt = strstr(q, "to option '")))
			opt += strlen("to option '");
		for (size_t i = 0; i < cmd->flags.len; i++) {
			const char *a = cmd->flags.items[i];
			bool match = opt ? strncmp(a, opt, strcspn(opt, "'")) == 0 && strlen(a) >= len &&
			                       strncmp(a + strlen(a) - len, p, len) == 0
			                 : strlen(a) == len && strncmp(a, p, len) == 0;
			bool seen = false;
			for (size_t d = 0; d < dropped->len; d++)
				seen |= strcmp(dropped->items[d], a) == 0;
			if (match && !seen) {
				*flag = a;
				return true;
			}
		}
	}
	return false;
}

/* The command's flags (less those clang rejected), then capture's own. */
static void common_args(strvec *v, const bitcode *b, const char *clang, const capture_cmd *cmd)
{
	strvec_free(v);
	VEC_PUSH(v, xstrdup(clang));
	for (size_t i = 0; i < cmd->flags.len; i++) {
		bool drop = false;
		for (size_t d = 0; d < b->dropped.len; d++)
			drop |= strcmp(b->dropped.items[d], cmd->flags.items[i]) == 0;
		if (!drop)
			VEC_PUSH(v, xstrdup(cmd->flags.items[i]));
	}
	/* -g last, so the project's -g0 or -gline-tables-only cannot remove the
	 * types the refinement reads; -w: clang's warnings (and -Werror on them)
	 * are not the native build's; the C idioms gcc accepts and clang makes
	 * errors by default stay warnings. */
	static const char *const extra[] = {"-c", "-flto", "-g", "-w", "-Qunused-arguments",
	                                    "-Wno-error=implicit-function-declaration", "-Wno-error=implicit-int",
	                                    "-Wno-error=int-conversion", "-Wno-error=incompatible-pointer-types",
	                                    "-Wno-error=return-type"};
	for (size_t i = 0; i < sizeof extra / sizeof *extra; i++)
		VEC_PUSH(v, xstrdup(extra[i]));
}

/* The front end only: the optimizer (lto-pre-link at the command's -O) is
 * most of the compile's time, so it runs at extract (capture/prelink.h),
 * with the same flags, which `prelink` keeps. -emit-llvm-uselists: the
 * bitcode keeps each value's use-list order, which some passes follow (the
 * order of a phi's operands, for one); without it the optimizer, run on the
 * bitcode read back, gives IR that differs from a one-step compile's. */
static void build_args(bitcode *b, const char *clang, const capture_cmd *cmd, const capture_source *src)
{
	common_args(&b->args, b, clang, cmd);
	common_args(&b->prelink, b, clang, cmd);
	static const char *const front[] = {"-Xclang", "-disable-llvm-passes", "-Xclang", "-emit-llvm-uselists"};
	for (size_t i = 0; i < sizeof front / sizeof *front; i++)
		VEC_PUSH(&b->args, xstrdup(front[i]));
	if (src->xlang) {
		VEC_PUSH(&b->args, xstrdup("-x"));
		VEC_PUSH(&b->args, xstrdup(src->xlang));
	}
	VEC_PUSH(&b->args, xstrdup(src->path));
	VEC_PUSH(&b->args, xstrdup("-o"));
	VEC_PUSH(&b->args, xstrdup(b->tmp));
	VEC_PUSH(&b->args, NULL);
	b->args.len--;   /* the NULL stays past the end for execvp */
}

/* The optimization level the command asks for: its last -O flag, or NULL
 * (clang's default, -O0). Recorded for people; the flags decide. */
static const char *opt_level(const capture_cmd *cmd)
{
	const char *level = NULL;
	for (size_t i = 0; i < cmd->flags.len; i++)
		if (strncmp(cmd->flags.items[i], "-O", 2) == 0)
			level = cmd->flags.items[i];
	return level;
}

static char *first_error(const char *text)
{
	const char *e = text ? strstr(text, "error:") : NULL;
	if (!e)
		return xstrdup("clang-22 failed");
	size_t len = strcspn(e, "\n");
	char *r = xmalloc(len + 20);
	snprintf(r, len + 20, "clang-22: %.*s", (int)len, e);
	return r;
}

static void compile_bitcode(bitcode *b, const char *clang, const capture_cmd *cmd, const capture_source *src)
{
	if (src->lang == CAPTURE_LANG_ASM) {
		b->failure = xstrdup("assembly source (no bitcode)");
		return;
	}
	if (src->lang == CAPTURE_LANG_STDIN) {
		b->failure = xstrdup("source read from stdin (not compiled again)");
		return;
	}
	for (int attempt = 0; attempt < 6; attempt++) {
		build_args(b, clang, cmd, src);
		char *text = NULL;
		int st = capture_run_collect(b->args.items, &text);
		if (st == 0) {
			b->ok = true;
			free(text);
			return;
		}
		/* Drop every flag clang named as unknown, then try again. */
		size_t before = b->dropped.len;
		for (char *line = text; line && *line;) {
			char *nl = strchr(line, '\n');
			if (nl)
				*nl = 0;
			const char *flag;
			if (rejected_flag(line, cmd, &b->dropped, &flag))
				VEC_PUSH(&b->dropped, xstrdup(flag));
			if (nl)
				*nl = '\n';
			line = nl ? nl + 1 : NULL;
		}
		if (b->dropped.len == before) {
			b->failure = first_error(text);
			free(text);
			unlink(b->tmp);
			return;
		}
		free(text);
	}
	b->failure = xstrdup("clang-22 rejected too many flags");
}

static json_t *strvec_json(const strvec *v)
{
	json_t *a = json_array();
	for (size_t i = 0; i < v->len; i++)
		json_array_append_new(a, json_string(v->items[i]));
	return a;
}

/* The object a -c compile of source i wrote. */
static char *object_of(const capture_cmd *cmd, size_t i)
{
	if (cmd->output && cmd->sources.len == 1)
		return xstrdup(cmd->output);
	const char *b = base_name(cmd->sources.items[i].path);
	const char *dot = strrchr(b, '.');
	size_t len = dot ? (size_t)(dot - b) : strlen(b);
	char *r = xmalloc(len + 3);
	memcpy(r, b, len);
	strcpy(r + len, ".o");
	return r;
}

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

typedef struct invocation {
	const char *dir, *cwd, *name;
	char **argv;               /* the original command line, argv[0] the wrapper's name */
	int argc;
	long long t;
} invocation;

static const char *lang_name(capture_lang l)
{
	switch (l) {
	case CAPTURE_LANG_C: return "c";
	case CAPTURE_LANG_CXX: return "c++";
	case CAPTURE_LANG_ASM: return "assembly";
	case CAPTURE_LANG_OBJC: return "objective-c";
	case CAPTURE_LANG_STDIN: return "stdin";
	}
	return "?";
}

/* Moves the bitcode into DIR/bc/ID.bc and writes the unit record. */
static void record_unit(const invocation *inv, const capture_cmd *cmd, const capture_source *src, const char *object,
                        const char *object_hash, const char *id, bitcode *b)
{
	char bc_rel[200], bc_abs[4400], bc_hash[CAPTURE_HASH_HEX] = "";
	bool debug = false;
	snprintf(bc_rel, sizeof bc_rel, "bc/%s.bc", id);
	snprintf(bc_abs, sizeof bc_abs, "%s/%s", inv->dir, bc_rel);
	facet_error err = {0};
	/* fsync'ed and renamed, bc/ fsync'ed: the bitcode is on disk before the
	 * record naming it is (capture_record_write does the same for it). */
	if (b->ok && atomic_install(b->tmp, bc_abs, &(atomic_target){.what = "the unit's bitcode"}, &err)) {
		size_t n;
		unsigned char *d = capture_read_file(bc_abs, &n, &err);
		if (d) {
			capture_hash_mem(d, n, bc_hash);
			debug = memmem(d, n, "Debug Info Version", 18) != NULL;
			free(d);
		} else {
			b->ok = false;
		}
	} else if (b->ok) {
		b->ok = false;
		b->failure = xstrdup("cannot move the bitcode into the capture directory");
	}
	char *source = capture_absolute(inv->cwd, src->path);
	json_t *args = json_array();
	for (int i = 0; i < inv->argc; i++)
		json_array_append_new(args, json_string(inv->argv[i]));
	json_t *u = json_pack("{s:s, s:s, s:I, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:b}", "kind", "unit", "id", id, "time",
	                      (json_int_t)inv->t, "cwd", inv->cwd, "source", source, "language", lang_name(src->lang),
	                      "compiler", inv->name, "arguments", args, "bitcode_arguments", strvec_json(&b->args),
	                      "dropped_flags", strvec_json(&b->dropped), "debug_info", debug);
	json_object_set_new(u, "object", object ? json_string(object) : json_null());
	json_object_set_new(u, "object_hash", object_hash ? json_string(object_hash) : json_null());
	json_object_set_new(u, "bitcode", b->ok ? json_string(bc_rel) : json_null());
	json_object_set_new(u, "bitcode_hash", b->ok ? json_string(bc_hash) : json_null());
	json_object_set_new(u, "missing", b->ok ? json_null() : json_string(b->failure ? b->failure : "no bitcode"));
	json_object_set_new(u, "prelink_arguments", b->ok ? strvec_json(&b->prelink) : json_null());
	json_object_set_new(u, "optimization", opt_level(cmd) ? json_string(opt_level(cmd)) : json_null());
	char name[120];
	snprintf(name, sizeof name, "u-%s", id);
	capture_record_write(inv->dir, name, u, &err);
	json_decref(u);
	free(source);
}

static void compile_records(const invocation *inv, const capture_cmd *cmd, bitcode *bcs)
{
	for (size_t i = 0; i < cmd->sources.len; i++) {
		char *obj = object_of(cmd, i);
		char *abs_obj = capture_absolute(inv->cwd, obj);
		char hash[CAPTURE_HASH_HEX];
		facet_error err = {0};
		/* -o /dev/null and the like: nothing the link can find again */
		if (capture_is_regular(abs_obj) && capture_hash_file(abs_obj, hash, &err))
			record_unit(inv, cmd, &cmd->sources.items[i], abs_obj, hash, hash, &bcs[i]);
		free(obj);
		free(abs_obj);
	}
}

static json_t *input_json(const capture_input *in, const char *unit)
{
	json_t *o = json_pack("{s:s}", "path", in->path);
	json_object_set_new(o, "member", in->member ? json_string(in->member) : json_null());
	json_object_set_new(o, "hash", in->hash[0] ? json_string(in->hash) : json_null());
	json_object_set_new(o, "unit", unit ? json_string(unit) : json_null());
	if (in->gcc_lto)
		json_object_set_new(o, "gcc_lto", json_true());
	return o;
}

static void link_record(const invocation *inv, const capture_cmd *cmd, bitcode *bcs, const char *nm)
{
	const char *out = cmd->output ? cmd->output : "a.out";
	char *abs_out = capture_absolute(inv->cwd, out);
	char out_hash[CAPTURE_HASH_HEX];
	facet_error err = {0};
	if (!capture_is_regular(abs_out) || !capture_hash_file(abs_out, out_hash, &err)) {
		free(abs_out);
		return;
	}
	/* Sources compiled by this command: units without an object. */
	size_t ns = cmd->sources.len;
	char (*ids)[CAPTURE_HASH_HEX] = xcalloc(ns + 1, sizeof *ids);
	capture_syms *syms = xcalloc(ns + 1, sizeof *syms);
	/* llvm-nm only when an archive may need the sources' references */
	bool want_syms = ns > 0 && capture_link_reads_archives(cmd, inv->cwd);
	for (size_t i = 0; i < ns; i++) {
		char seed[4400];
		snprintf(seed, sizeof seed, "%s\n%s\n%ld\n%lld\n%zu", inv->cwd, cmd->sources.items[i].path, (long)getpid(),
		         inv->t, i);
		capture_hash_mem(seed, strlen(seed), ids[i]);
		if (bcs[i].ok && want_syms)
			capture_bitcode_symbols(nm, bcs[i].tmp, &syms[i], &err);
		record_unit(inv, cmd, &cmd->sources.items[i], NULL, NULL, ids[i], &bcs[i]);
	}
	capture_resolution r = {0};
	capture_resolve(cmd, inv->cwd, syms, &r);
	json_t *inputs = json_array(), *shared = json_array(), *notes = json_array(), *args = json_array();
	for (size_t i = 0; i < r.used.len; i++)
		json_array_append_new(inputs, input_json(&r.used.items[i],
		                                         r.used.items[i].source >= 0 ? ids[r.used.items[i].source] : NULL));
	for (size_t i = 0; i < r.shared.len; i++)
		json_array_append_new(shared, input_json(&r.shared.items[i], NULL));
	for (size_t i = 0; i < r.notes.len; i++)
		json_array_append_new(notes, json_string(r.notes.items[i]));
	for (int i = 0; i < inv->argc; i++)
		json_array_append_new(args, json_string(inv->argv[i]));
	const char *type = cmd->relocatable ? "relocatable" : cmd->shared ? "shared" : "executable";
	json_t *l = json_pack("{s:s, s:I, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:b}", "kind", "link", "time",
	                      (json_int_t)inv->t, "cwd", inv->cwd, "compiler", inv->name, "output", abs_out,
	                      "output_hash", out_hash, "type", type, "arguments", args, "inputs", inputs, "shared",
	                      shared, "notes", notes, "linker_script", cmd->script);
	json_object_set_new(l, "entry", cmd->entry ? json_string(cmd->entry) : json_null());
	char name[120];
	snprintf(name, sizeof name, "l-%lld-%ld", inv->t, (long)getpid());
	capture_record_write(inv->dir, name, l, &err);
	json_decref(l);
	capture_resolution_free(&r);
	for (size_t i = 0; i < ns; i++)
		capture_syms_free(&syms[i]);
	free(syms);
	free(ids);
	free(abs_out);
}

static void bitcode_free(bitcode *b)
{
	free(b->failure);
	strvec_free(&b->dropped);
	strvec_free(&b->args);
	strvec_free(&b->prelink);
}

static bool probe_name(const char *path)
{
	return strncmp(base_name(path), "conftest", 8) == 0;
}

bool capture_is_probe(const capture_cmd *cmd, const char *cwd)
{
	if (strstr(cwd, "/CMakeFiles/CMakeScratch/") || strstr(cwd, "/CMakeFiles/CMakeTmp/"))
		return true;
	if (cmd->output && !probe_name(cmd->output))
		return false;
	for (size_t i = 0; i < cmd->sources.len; i++)
		if (!probe_name(cmd->sources.items[i].path))
			return false;
	return cmd->output || cmd->sources.len;
}

/* The real compiler's command line: the original $CC words (a launcher such
 * as ccache stays in front) or the wrapper's own name, found on the cleaned
 * PATH; then the arguments. */
static void real_command(const char *name, const char *exec_path, int argc, char **argv, strvec *real, bool *cxx)
{
	const char *env = NULL;
	if (strcmp(name, "facet-env-cc") == 0)
		env = getenv("FACET_CAPTURE_REAL_CC");
	else if (strcmp(name, "facet-env-cxx") == 0)
		env = getenv("FACET_CAPTURE_REAL_CXX"), *cxx = true;
	if (env && *env)
		split_words(env, real);
	else
		VEC_PUSH(real, xstrdup(env ? (*cxx ? "c++" : "cc") : exec_path ? exec_path : name));
	if (!env)
		*cxx = strstr(name, "++") != NULL;
	for (int i = 1; i < argc; i++)
		VEC_PUSH(real, xstrdup(argv[i]));
	VEC_PUSH(real, NULL);
	real->len--;
}

/* Whether path is this very program (the wrapper), by another name. */
static bool is_self(const char *path)
{
	char *a = realpath(path, NULL), *b = realpath("/proc/self/exe", NULL);
	bool same = a && b && strcmp(a, b) == 0;
	free(a);
	free(b);
	return same;
}

int capture_wrap(int argc, char **argv)
{
	/* Started by the exec hook (capture/bin/preload.c) in place of a
	 * compiler named by its path: that path is the real compiler. */
	const char *hook = getenv("FACET_CAPTURE_EXEC");
	char *exec_path = hook && *hook ? xstrdup(hook) : NULL;
	unsetenv("FACET_CAPTURE_EXEC");
	if (exec_path && is_self(exec_path)) {   /* DIR/bin/../bin/cc: the wrapper by another spelling */
		free(exec_path);
		exec_path = NULL;
	}
	const char *name = base_name(exec_path ? exec_path : argv[0]);
	const char *dir = getenv("FACET_CAPTURE_DIR");
	clean_path(getenv("FACET_CAPTURE_BIN"));
	strvec real = {0};
	bool cxx = false;
	real_command(name, exec_path, argc, argv, &real, &cxx);
	/* Words of $CC after the program (CC="gcc -std=gnu99") are flags too. */
	size_t first_flag = 0;
	while (first_flag < real.len && real.items[first_flag][0] != '-' && first_flag < real.len - (size_t)(argc - 1))
		first_flag++;
	char cwd[4096];
	if (!getcwd(cwd, sizeof cwd))
		strcpy(cwd, ".");
	/* The real tool and all it runs are not observed again: neither by the
	 * wrapper (FACET_CAPTURE_BIN is off PATH) nor by the exec hook. */
	bool active = getenv("FACET_CAPTURE_ACTIVE") != NULL;
	setenv("FACET_CAPTURE_ACTIVE", "1", 1);
	if (dir && !active && capture_is_rewriter_name(name)) {   /* objcopy, strip (capture/rewrite.h) */
		int st = capture_rewrite_run(dir, cwd, name, argc, argv, real.items, now_ns());
		strvec_free(&real);
		free(exec_path);
		return st;
	}
	capture_cmd cmd;
	if (capture_is_linker_name(name))
		capture_ld_parse(&cmd, argc - 1, argv + 1);
	else
		capture_cmd_parse(&cmd, (int)(real.len - first_flag), real.items + first_flag);
	if (!dir || active || cmd.mode == CAPTURE_PASS || capture_is_probe(&cmd, cwd)) {
		capture_cmd_free(&cmd);
		execvp(real.items[0], real.items);
		return 127;
	}
	invocation inv = {.dir = dir, .cwd = cwd, .name = name, .argv = argv, .argc = argc, .t = now_ns()};
	const char *clang = getenv(cxx ? "FACET_CAPTURE_CLANGXX" : "FACET_CAPTURE_CLANG");
	const char *nm = getenv("FACET_CAPTURE_NM");
	pid_t native = capture_spawn(real.items, -1, -1);
	bitcode *bcs = xcalloc(cmd.sources.len + 1, sizeof *bcs);
	for (size_t i = 0; i < cmd.sources.len; i++) {
		snprintf(bcs[i].tmp, sizeof bcs[i].tmp, "%s/tmp/%ld-%zu.bc", dir, (long)getpid(), i);
		compile_bitcode(&bcs[i], clang ? clang : "clang-22", &cmd, &cmd.sources.items[i]);
	}
	int status = capture_wait(native);
	/* The records are written by a child: whatever goes wrong there (an
	 * input facet cannot read), the build sees the real compiler's status. */
	pid_t rec = status == 0 ? fork() : -1;
	if (rec == 0) {
		/* never the build's streams: DIR/errors.log keeps what the child says */
		char log[4200];
		snprintf(log, sizeof log, "%s/errors.log", dir);
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0666);
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		if (fd >= 0 || null >= 0)
			dup2(fd >= 0 ? fd : null, STDERR_FILENO);
		if (cmd.mode == CAPTURE_COMPILE)
			compile_records(&inv, &cmd, bcs);
		else
			link_record(&inv, &cmd, bcs, nm ? nm : "llvm-nm");
		_exit(0);
	}
	if (rec > 0)
		capture_wait(rec);
	for (size_t i = 0; i < cmd.sources.len; i++) {
		unlink(bcs[i].tmp);
		bitcode_free(&bcs[i]);
	}
	free(bcs);
	capture_cmd_free(&cmd);
	strvec_free(&real);
	free(exec_path);
	return status;
}
