/* asmcall.c — the calls an inline asm statement's text makes; see
 * asmcall.h. Pure text: no LLVM here. */
#include "ir/asmcall.h"

#include <ctype.h>
#include <string.h>

/* More operands than any asm statement the kernel writes (its largest
 * paravirt and alternative calls have about twenty). */
#define OPERANDS_MAX 128
#define REG_NONE (-1)
#define REG_RAX ASM_ABI_ARGS

typedef struct operand {
	bool output, indirect, label;
	int reg;                   /* 0..5 an argument register, REG_RAX, or REG_NONE */
	int arg;                   /* the call argument it is, -1 for direct outputs and labels */
} operand;

typedef struct reader {
	operand ops[OPERANDS_MAX];
	unsigned n_ops;
	asm_calls *out;
} reader;

/* The register a `{name}` constraint names, as an argument position. */
static int reg_of(const char *name, size_t len)
{
	static const char *const regs[][3] = {
		{"di", "rdi", "edi"}, {"si", "rsi", "esi"}, {"dx", "rdx", "edx"},
		{"cx", "rcx", "ecx"}, {"r8", "r8d", "r8q"}, {"r9", "r9d", "r9q"}, {"ax", "rax", "eax"},
	};
	for (int r = 0; r <= REG_RAX; r++)
		for (int k = 0; k < 3; k++)
			if (strlen(regs[r][k]) == len && memcmp(regs[r][k], name, len) == 0)
				return r;
	return REG_NONE;
}

/* One constraint, s[0..len): `=*m`, `{di}`, `0` (tied), `~{memory}`, `!i`. */
static bool read_constraint(reader *r, const char *s, size_t len, unsigned *n_args)
{
	size_t i = 0;
	if (len && s[0] == '~')
		return true;   /* a clobber: no operand */
	if (r->n_ops == OPERANDS_MAX)
		return false;
	operand o = {.reg = REG_NONE, .arg = -1};
	if (i < len && s[i] == '=')
		o.output = true, i++;
	else if (i < len && s[i] == '!')
		o.label = true, i++;
	for (; i < len && (s[i] == '*' || s[i] == '&' || s[i] == '%'); i++)
		o.indirect |= s[i] == '*';
	if (i < len && s[i] == '{') {
		const char *end = memchr(s + i, '}', len - i);
		if (!end)
			return false;
		o.reg = reg_of(s + i + 1, (size_t)(end - s - i - 1));
	} else if (i < len && isdigit((unsigned char)s[i])) {
		unsigned tied = 0;
		for (; i < len && isdigit((unsigned char)s[i]) && tied < OPERANDS_MAX; i++)
			tied = tied * 10 + (unsigned)(s[i] - '0');
		if (tied >= r->n_ops)
			return false;
		o.reg = r->ops[tied].reg;
	}
	if ((!o.output || o.indirect) && !o.label)
		o.arg = (int)(*n_args)++;
	r->ops[r->n_ops++] = o;
	return true;
}

static bool read_constraints(reader *r, const char *s, size_t len)
{
	unsigned n_args = 0;
	size_t start = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] != ',')
			continue;
		if (i > start && !read_constraint(r, s + start, i - start, &n_args))
			return false;
		start = i + 1;
	}
	for (unsigned k = 0; k < ASM_ABI_ARGS; k++)
		r->out->abi_arg[k] = -1;
	for (unsigned k = 0; k < r->n_ops; k++) {
		const operand *o = &r->ops[k];
		if (o->reg == REG_RAX && o->output && !o->indirect)
			r->out->returns = true;
		else if (o->reg >= 0 && o->reg < ASM_ABI_ARGS && !o->output && o->arg >= 0 && r->out->abi_arg[o->reg] < 0)
			r->out->abi_arg[o->reg] = o->arg;
	}
	return true;
}

static bool ident_start(int c) { return isalpha(c) || c == '_' || c == '.'; }
static bool ident_char(int c) { return isalnum(c) || c == '_' || c == '.'; }
static bool blank(int c) { return c == ' ' || c == '\t' || c == '\r'; }

/* An operand reference at t[*i]: `$N` or `${N}` / `${N:m}`. Sets *n and *mod
 * (0 for none) and moves *i past it; false when there is none there. */
static bool operand_ref(const char *t, size_t len, size_t *i, unsigned *n, char *mod)
{
	size_t k = *i;
	if (k >= len || t[k] != '$')
		return false;
	bool braced = k + 1 < len && t[k + 1] == '{';
	k += braced ? 2 : 1;
	if (k >= len || !isdigit((unsigned char)t[k]))
		return false;   /* `$$`, `${:uid}`, `$(`: not an operand */
	unsigned v = 0;
	for (; k < len && isdigit((unsigned char)t[k]) && v < OPERANDS_MAX; k++)
		v = v * 10 + (unsigned)(t[k] - '0');
	*mod = 0;
	if (braced) {
		if (k < len && t[k] == ':')
			for (k++; k < len && isalpha((unsigned char)t[k]); k++)
				*mod = *mod ? '?' : t[k];   /* two letters: not a form read here */
		if (k >= len || t[k] != '}')
			return false;
		k++;
	}
	*n = v;
	*i = k;
	return true;
}

static bool at_end(const char *t, size_t len, size_t i)
{
	while (i < len && blank(t[i]))
		i++;
	return i >= len || t[i] == '\n' || t[i] == ';' || t[i] == '#';
}

static void add_call(reader *r, asm_call c)
{
	if (r->out->n_calls < ASM_CALLS_MAX)
		r->out->calls[r->out->n_calls++] = c;
	else
		r->out->unread++;
}

/* The operand of a call or jmp at t[i]. False when the operand names an
 * operand the constraints lack. */
static bool read_target(reader *r, const char *t, size_t len, size_t i, bool jump)
{
	while (i < len && blank(t[i]))
		i++;
	bool star = i < len && t[i] == '*';
	i += star;
	unsigned n;
	char mod;
	size_t k = i;
	if (operand_ref(t, len, &k, &n, &mod)) {
		if (n >= r->n_ops)
			return false;
		const operand *o = &r->ops[n];
		if (o->label)
			return true;   /* asm goto's jump to a C label */
		bool plain = mod == 0 || mod == 'c' || mod == 'P' || mod == 'p' || mod == 'a';
		if (!plain || o->arg < 0 || !at_end(t, len, k)) {
			r->out->unread += !jump;
			return true;
		}
		add_call(r, (asm_call){.form = o->indirect ? ASM_CALL_MEMORY : ASM_CALL_VALUE, .jump = jump,
		                       .arg = (unsigned)o->arg});
		return true;
	}
	if (!star && i < len && ident_start((unsigned char)t[i])) {
		size_t start = i;
		while (i < len && ident_char((unsigned char)t[i]))
			i++;
		size_t name_len = i - start;
		if (i + 4 <= len && (memcmp(t + i, "@PLT", 4) == 0 || memcmp(t + i, "@plt", 4) == 0))
			i += 4;
		if (at_end(t, len, i)) {
			add_call(r, (asm_call){.form = ASM_CALL_SYMBOL, .jump = jump, .name = t + start, .name_len = name_len});
			return true;
		}
	}
	r->out->unread += !jump;   /* a jmp to a local label (`jmp 1f`) is no call */
	return true;
}

static bool word_is(const char *t, size_t len, const char *w)
{
	return strlen(w) == len && memcmp(t, w, len) == 0;
}

/* One statement t[0..len): labels, prefixes, then a mnemonic. */
static bool read_statement(reader *r, const char *t, size_t len)
{
	size_t i = 0;
	for (;;) {
		while (i < len && blank(t[i]))
			i++;
		size_t start = i;
		while (i < len && (ident_char((unsigned char)t[i])))
			i++;
		size_t wlen = i - start;
		if (wlen == 0)
			return true;   /* a directive's operand, an operand reference, punctuation */
		if (i < len && t[i] == ':') {
			i++;   /* a label */
			continue;
		}
		const char *w = t + start;
		if (word_is(w, wlen, "notrack") || word_is(w, wlen, "cs") || word_is(w, wlen, "ds"))
			continue;
		bool call = word_is(w, wlen, "call") || word_is(w, wlen, "callq");
		bool jump = word_is(w, wlen, "jmp") || word_is(w, wlen, "jmpq");
		if (!call && !jump)
			return true;
		if (i < len && !blank(t[i]))
			return true;   /* `call.foo`: no such instruction */
		return read_target(r, t, len, i, jump);
	}
}

bool asm_calls_read(const char *tmpl, size_t tlen, const char *cons, size_t clen, asm_calls *out)
{
	reader local = {.out = out};
	memset(out, 0, sizeof *out);
	if (!read_constraints(&local, cons, clen))
		goto bad;
	size_t start = 0;
	for (size_t i = 0; i <= tlen; i++) {
		if (i < tlen && tmpl[i] != '\n' && tmpl[i] != ';' && tmpl[i] != '#')
			continue;
		if (!read_statement(&local, tmpl + start, i - start))
			goto bad;
		if (i < tlen && tmpl[i] == '#')   /* a comment runs to the line's end */
			while (i < tlen && tmpl[i] != '\n')
				i++;
		start = i + 1;
	}
	return true;
bad:
	memset(out, 0, sizeof *out);
	return false;
}
