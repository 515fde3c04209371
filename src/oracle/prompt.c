/* prompt.c — building one question's prompt from the program model and the
 * sources the debug info names (prompt.h). The wording asks for a yes or no
 * per listed candidate only, so the model cannot widen the bound (§3.4.1). */
#include "oracle/prompt.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "util/sha256.h"
#include "util/strmap.h"
#include "util/vec.h"
#include "util/xalloc.h"

enum {
	CONTEXT_BEFORE = 8,        /* lines of code shown before the call */
	CONTEXT_AFTER = 2,
	BODY_LINES = 60,           /* a candidate's body is cut after this many lines ... */
	BODY_LINES_MANY = 12,      /* ... or this many when the question lists many candidates */
	MANY_CANDIDATES = 40,
};

typedef struct srcfile {
	char *path;                /* the path read, NULL when none could be */
	char *text;
	VEC(size_t) lines;         /* offset of each line's start; lines.items[0] is line 1 */
} srcfile;

struct oracle_sources {
	char *root;
	strmap files;              /* recorded path -> srcfile * */
	VEC(char *) keys;          /* owned keys of files */
};

oracle_sources *oracle_sources_new(const char *root)
{
	oracle_sources *s = xcalloc(1, sizeof *s);
	s->root = root && *root ? xstrdup(root) : NULL;
	strmap_init(&s->files);
	return s;
}

void oracle_sources_free(oracle_sources *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->keys.len; i++) {
		srcfile *f = strmap_get(&s->files, s->keys.items[i]);
		free(f->path);
		free(f->text);
		VEC_FREE(&f->lines);
		free(f);
		free(s->keys.items[i]);
	}
	VEC_FREE(&s->keys);
	strmap_free(&s->files);
	free(s->root);
	free(s);
}

static bool is_regular(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *p = xmalloc(n);
	snprintf(p, n, "%s%s%s", a, *a && a[strlen(a) - 1] == '/' ? "" : "/", b);
	return p;
}

/* The path to read for a recorded (dir, file): the file as recorded (joined
 * to its directory when relative), else under the source root: the file,
 * then the full path with leading components dropped one by one. */
static char *resolve(const oracle_sources *s, const ir_loc *l)
{
	char *full = l->file[0] == '/' || !l->dir || !*l->dir ? xstrdup(l->file) : join(l->dir, l->file);
	if (is_regular(full))
		return full;
	if (s->root) {
		char *p = join(s->root, l->file[0] == '/' ? l->file + 1 : l->file);
		if (is_regular(p)) {
			free(full);
			return p;
		}
		free(p);
		for (const char *t = strchr(full, '/'); t; t = strchr(t + 1, '/')) {
			if (!t[1])
				break;
			p = join(s->root, t + 1);
			if (is_regular(p)) {
				free(full);
				return p;
			}
			free(p);
		}
	}
	free(full);
	return NULL;
}

static srcfile *source(oracle_sources *s, const ir_loc *l)
{
	if (!l->file || !*l->file)
		return NULL;
	char *key = l->dir && l->file[0] != '/' ? join(l->dir, l->file) : xstrdup(l->file);
	srcfile *f = strmap_get(&s->files, key);
	if (f) {
		free(key);
		return f;
	}
	f = xcalloc(1, sizeof *f);
	VEC_PUSH(&s->keys, key);
	strmap_put(&s->files, key, f);
	char *path = resolve(s, l);
	FILE *in = path ? fopen(path, "rb") : NULL;
	if (!in) {
		free(path);
		return f;
	}
	VEC(char) buf = {0};
	char chunk[8192];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, in)) > 0) {
		VEC_RESERVE(&buf, buf.len + n + 1);
		memcpy(buf.items + buf.len, chunk, n);
		buf.len += n;
	}
	fclose(in);
	VEC_RESERVE(&buf, buf.len + 1);
	buf.items[buf.len] = 0;
	f->path = path;
	f->text = buf.items;
	VEC_PUSH(&f->lines, (size_t)0);
	for (size_t i = 0; i < buf.len; i++)
		if (buf.items[i] == '\n' && i + 1 < buf.len)
			VEC_PUSH(&f->lines, i + 1);
	return f;
}

/* Line `line` (1-based) of f without its newline: start and length. */
static bool line_span(const srcfile *f, unsigned line, const char **start, size_t *len)
{
	if (!f->text || line == 0 || line > f->lines.len)
		return false;
	const char *p = f->text + f->lines.items[line - 1];
	const char *e = strchr(p, '\n');
	*start = p;
	*len = e ? (size_t)(e - p) : strlen(p);
	return true;
}

/* ---- opaque field names --------------------------------------------------- */

void oracle_opaque_token(const char *name, char out[16])
{
	char hex[65];
	hash_sha256_hex(name, strlen(name), hex);
	snprintf(out, 16, "field_%.8s", hex);
}

typedef struct opaque_set {
	strmap names;              /* field member name -> non-NULL */
} opaque_set;

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Writes code to out, replacing each member name of the set where it names
 * a member — after '.' or '->' (an access or a designated initializer) or
 * as a function-pointer declarator '(*name)' — by its token. */
static void put_code(FILE *out, const char *code, size_t len, const opaque_set *op)
{
	if (!op) {
		fwrite(code, 1, len, out);
		return;
	}
	size_t i = 0;
	while (i < len) {
		if (!ident_char(code[i]) || (i > 0 && ident_char(code[i - 1]))) {
			fputc(code[i++], out);
			continue;
		}
		size_t j = i;
		while (j < len && ident_char(code[j]))
			j++;
		size_t k = i;
		while (k > 0 && (code[k - 1] == ' ' || code[k - 1] == '\t'))
			k--;
		/* a.m, p->m, .m = (designated initializer), or the declarator (*m) of a member */
		bool member = (k > 0 && code[k - 1] == '.') || (k > 1 && code[k - 1] == '>' && code[k - 2] == '-') ||
		              (k > 1 && code[k - 1] == '*' && code[k - 2] == '(');
		char word[256];
		if (member && j - i < sizeof word) {
			memcpy(word, code + i, j - i);
			word[j - i] = 0;
			if (strmap_get(&op->names, word)) {
				char tok[16];
				oracle_opaque_token(word, tok);
				fputs(tok, out);
				i = j;
				continue;
			}
		}
		fwrite(code + i, 1, j - i, out);
		i = j;
	}
}

/* ---- code excerpts ----------------------------------------------------------- */

/* The lines of a function's definition from its DISubprogram line to the
 * brace closing its body (comments and literals skipped), at most max lines. */
static bool put_body(FILE *out, const srcfile *f, unsigned first, unsigned max, const opaque_set *op)
{
	const char *start;
	size_t len;
	if (!line_span(f, first, &start, &len))
		return false;
	int depth = 0;
	bool opened = false, in_block = false;
	unsigned line = first, shown = 0;
	for (; line_span(f, line, &start, &len); line++) {
		if (shown == max) {
			fprintf(out, "    ... (cut after %u lines)\n", max);
			return true;
		}
		put_code(out, start, len, op);
		fputc('\n', out);
		shown++;
		for (size_t i = 0; i < len; i++) {
			char c = start[i];
			if (in_block) {
				if (c == '*' && i + 1 < len && start[i + 1] == '/')
					in_block = false, i++;
				continue;
			}
			if (c == '/' && i + 1 < len && start[i + 1] == '/')
				break;
			if (c == '/' && i + 1 < len && start[i + 1] == '*') {
				in_block = true;
				i++;
			} else if (c == '"' || c == '\'') {
				for (i++; i < len && start[i] != c; i++)
					if (start[i] == '\\')
						i++;
			} else if (c == '{') {
				depth++;
				opened = true;
			} else if (c == '}') {
				depth--;
				if (opened && depth <= 0)
					return true;
			}
		}
		if (!opened && len > 0 && start[len - 1] == ';')
			return true;   /* a declaration, not a definition */
	}
	return true;
}

/* ---- the prompt ------------------------------------------------------------------ */

static const char *display_path(const ir_loc *l)
{
	return l->file && *l->file ? l->file : "?";
}

static void note_missing(FILE *out, const ir_loc *l, const srcfile *f, unsigned *missing)
{
	if (!l->file || !*l->file || l->line == 0)
		fputs("(no source position: the debug info records none)\n", out);
	else if (!f || !f->text) {
		fprintf(out, "(source not available: %s was not found; try --source-root)\n", display_path(l));
		(*missing)++;
	} else
		fprintf(out, "(source not available: %s has no line %u)\n", display_path(l), l->line);
}

/* The call's surrounding code, the call line marked, into the user message
 * u; returns the question's "site". */
static json_t *site_part(oracle_sources *s, const ir_site *site, unsigned id, FILE *u, opaque_set *op,
                         unsigned *missing)
{
	/* The call's surrounding code, the call line marked. */
	char *code = NULL;
	size_t code_len = 0;
	FILE *cs = open_memstream(&code, &code_len);
	srcfile *sf = source(s, &site->loc);
	const char *ls;
	size_t ll;
	bool have_site = sf && site->loc.line && line_span(sf, site->loc.line, &ls, &ll);
	if (have_site) {
		unsigned from = site->loc.line > CONTEXT_BEFORE ? site->loc.line - CONTEXT_BEFORE : 1;
		for (unsigned l = from; l <= site->loc.line + CONTEXT_AFTER && line_span(sf, l, &ls, &ll); l++) {
			fprintf(cs, "%s%5u  ", l == site->loc.line ? ">>" : "  ", l);
			put_code(cs, ls, ll, op);
			fputc('\n', cs);
		}
	} else {
		note_missing(cs, &site->loc, sf, missing);
	}
	fclose(cs);
	fprintf(u, "```c\n%s```\n", code);
	json_t *js = json_object();
	json_object_set_new(js, "id", json_integer(id));
	json_object_set_new(js, "caller", json_string(site->caller->name));
	json_object_set_new(js, "file", site->loc.file ? json_string(site->loc.file) : json_null());
	json_object_set_new(js, "line", json_integer(site->loc.line));
	json_object_set_new(js, "column", json_integer(site->loc.col));
	json_object_set_new(js, "code", json_string(code));
	json_object_set_new(js, "source_missing", json_boolean(!have_site));
	free(code);
	return js;
}

/* Each candidate's body (or why it is missing) into the user message u and
 * as the question's "candidates". */
static json_t *candidates_part(oracle_sources *s, const ir_program *p, const facet_question *q, FILE *u,
                               opaque_set *op, unsigned *missing)
{
	json_t *jc = json_array();
	unsigned max_lines = q->n_candidates > MANY_CANDIDATES ? BODY_LINES_MANY : BODY_LINES;
	for (unsigned i = 0; i < q->n_candidates; i++) {
		const ir_function *fn = p->functions[q->candidates[i]];
		char *body = NULL;
		size_t body_len = 0;
		FILE *b = open_memstream(&body, &body_len);
		srcfile *ff = fn->defined ? source(s, &fn->loc) : NULL;
		bool have = false;
		if (!fn->defined)
			fputs("(declared only: the program does not define it)\n", b);
		else if (ff && fn->loc.line && (have = put_body(b, ff, fn->loc.line, max_lines, op)))
			;
		else
			note_missing(b, &fn->loc, ff, missing);
		fclose(b);
		fprintf(u, "\nCandidate %u: %s (%s:%u)\n```c\n%s```\n", i + 1, fn->name, display_path(&fn->loc),
		        fn->loc.line, body);
		json_t *c = json_object();
		json_object_set_new(c, "name", json_string(fn->name));
		json_object_set_new(c, "file", fn->loc.file ? json_string(fn->loc.file) : json_null());
		json_object_set_new(c, "line", json_integer(fn->loc.line));
		json_object_set_new(c, "body", have ? json_string(body) : json_null());
		json_object_set_new(c, "note", have ? json_null() : json_string(body));
		json_array_append_new(jc, c);
		free(body);
	}
	return jc;
}

/* The question's "field": the field the call loads from, null without one. */
static json_t *field_part(const facet_field *fl, const char *field_name, bool opaque)
{
	json_t *jf = json_null();
	if (fl) {
		jf = json_object();
		json_object_set_new(jf, "key", json_string(fl->key));
		json_object_set_new(jf, "kind", json_string(fl->kind == FIELD_STRUCT ? "struct" : fl->kind == FIELD_GLOBAL ? "global" : "array"));
		json_object_set_new(jf, "record", json_string(fl->record));
		json_object_set_new(jf, "name", json_string(field_name ? field_name : fl->name));
		json_object_set_new(jf, "signature", json_string(fl->sig_text ? fl->sig_text : "?"));
		if (opaque && fl->kind == FIELD_STRUCT) {
			char key[64];
			snprintf(key, sizeof key, "%s@%llu", fl->record, (unsigned long long)fl->offset);
			json_object_set_new(jf, "key", json_string(key));
		}
	}
	return jf;
}

void oracle_prompt_build(oracle_sources *s, const facet_result *r, const facet_question *q, bool opaque,
                         oracle_prompt *out)
{
	const ir_program *p = r->prog;
	const ir_site *site = &p->sites[q->site];
	const facet_field *fl = q->field != IR_NONE && q->field < r->n_fields ? &r->fields[q->field] : NULL;
	memset(out, 0, sizeof *out);
	opaque_set ops, *op = NULL;
	if (opaque) {
		strmap_init(&ops.names);
		for (unsigned i = 0; i < r->n_fields; i++)
			if (r->fields[i].kind == FIELD_STRUCT && r->fields[i].name)
				strmap_put(&ops.names, r->fields[i].name, (void *)1);
		op = &ops;
	}
	char field_tok[16] = "";
	const char *field_name = NULL;
	if (fl && fl->kind == FIELD_STRUCT) {
		field_name = fl->name;
		if (opaque) {
			oracle_opaque_token(fl->name, field_tok);
			field_name = field_tok;
		}
	}
	out->n = q->n_candidates;
	out->names = xcalloc(q->n_candidates + 1, sizeof *out->names);
	for (unsigned i = 0; i < q->n_candidates; i++)
		out->names[i] = p->functions[q->candidates[i]]->name;

	json_t *jq = json_object();
	json_object_set_new(jq, "version", json_integer(1));
	json_object_set_new(jq, "kind", json_string(q->kind == QUESTION_COMPLETION ? "completion" : "disambiguation"));

	char *user = NULL;
	size_t user_len = 0;
	FILE *u = open_memstream(&user, &user_len);
	fprintf(u, "An indirect call in a C program needs its possible targets.\n\n");
	fprintf(u, "Call site: %s:%u in function %s:\n", display_path(&site->loc), site->loc.line,
	        site->caller->di_name ? site->caller->di_name : site->caller->name);

	json_object_set_new(jq, "site", site_part(s, site, q->site, u, op, &out->missing_sources));

	/* The field as context, not evidence (§3.4.1). */
	if (fl && fl->kind == FIELD_STRUCT) {
		fprintf(u, "\nThe called function pointer is loaded from the field `%s` of struct `%s` (declared type %s).",
		        field_name, fl->record, fl->sig_text ? fl->sig_text : "?");
		if (q->kind == QUESTION_COMPLETION)
			fprintf(u, " The question is which functions implement this field: which are stored into `%s.%s` "
			           "somewhere in the program.",
			        fl->record, field_name);
		fputc('\n', u);
	} else if (fl) {
		fprintf(u, "\nThe called function pointer is loaded from the global %s `%s` (declared type %s).\n",
		        fl->kind == FIELD_ARRAY ? "array" : "variable", fl->record, fl->sig_text ? fl->sig_text : "?");
	} else {
		fputs("\nThe analysis could not tell which field or variable the called pointer comes from.\n", u);
	}
	json_t *jf = field_part(fl, field_name, opaque);
	json_object_set_new(jq, "field", jf);

	if (q->kind == QUESTION_COMPLETION)
		fprintf(u, "\nThe static analysis found no target for this call. The %u function%s below %s the call's "
		           "type and %s taken by address somewhere. Decide for each whether this call can invoke it "
		           "at run time.\n",
		        q->n_candidates, q->n_candidates == 1 ? "" : "s", q->n_candidates == 1 ? "has" : "have",
		        q->n_candidates == 1 ? "is" : "are");
	else
		fprintf(u, "\nThe static analysis keeps these %u functions as possible targets of this call and no "
		           "evidence tells them apart. Compare them and decide for each whether this call can really "
		           "invoke it at run time (yes: keep it; no: it is never called here).\n",
		        q->n_candidates);

	json_t *jc = candidates_part(s, p, q, u, op, &out->missing_sources);
	json_object_set_new(jq, "candidates", jc);

	fputs("\nAnswer with one JSON object and nothing else, giving \"yes\" or \"no\" for every candidate "
	      "listed above and no other name:\n{\"answers\": {", u);
	for (unsigned i = 0; i < q->n_candidates && i < 3; i++)
		fprintf(u, "%s\"%s\": \"yes or no\"", i ? ", " : "", out->names[i]);
	fprintf(u, "%s}}\n", q->n_candidates > 3 ? ", ..." : "");
	fclose(u);

	out->system = xstrdup("You are an expert C programmer helping a static analysis tool resolve indirect "
	                      "calls. You decide only about the candidate functions you are given, and you answer "
	                      "with JSON only.");
	out->user = user;
	json_t *msgs = json_array();
	json_t *m = json_object();
	json_object_set_new(m, "role", json_string("system"));
	json_object_set_new(m, "content", json_string(out->system));
	json_array_append_new(msgs, m);
	m = json_object();
	json_object_set_new(m, "role", json_string("user"));
	json_object_set_new(m, "content", json_string(out->user));
	json_array_append_new(msgs, m);
	json_object_set_new(jq, "messages", msgs);
	out->question_json = json_dumps(jq, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(jq);

	size_t ns = strlen(out->system), nu = strlen(out->user);
	char *both = xmalloc(ns + nu + 2);
	memcpy(both, out->system, ns);
	both[ns] = 0;   /* a NUL between the messages: no two splits hash alike */
	memcpy(both + ns + 1, out->user, nu + 1);
	hash_sha256_hex(both, ns + 1 + nu, out->hash);
	free(both);
	if (op)
		strmap_free(&ops.names);
}

void oracle_prompt_free(oracle_prompt *p)
{
	free(p->system);
	free(p->user);
	free(p->question_json);
	free(p->names);
	memset(p, 0, sizeof *p);
}
