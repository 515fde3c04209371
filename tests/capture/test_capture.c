/* test_capture.c — the capture stage's readers and the command-line parser.
 *
 * Command lines as gcc and clang read them (mode, sources, output, linker
 * inputs in order, the flags the bitcode compile keeps); ar archives and ELF
 * objects built here byte by byte, whole and damaged: every damage is an
 * error naming the file, never a read outside the buffer (ASan runs this). */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "capture/args.h"
#include "capture/binfile.h"
#include "capture/hash.h"
#include "capture/manifest.h"
#include "capture/rewrite.h"
#include "capture/wrap.h"

static capture_cmd parse(int argc, const char **argv)
{
	capture_cmd c;
	capture_cmd_parse(&c, argc, (char **)argv);
	return c;
}

static bool has_flag(const capture_cmd *c, const char *f)
{
	for (size_t i = 0; i < c->flags.len; i++)
		if (strcmp(c->flags.items[i], f) == 0)
			return true;
	return false;
}

static void test_compile_line(void **state)
{
	(void)state;
	const char *argv[] = {"-O2", "-DX=1", "-I", "inc", "-MD", "-MF", "x.d", "-Wp,-MMD,y.d", "-c", "-o", "out/a.o",
	                      "src/a.c", "-fno-tree-vrp"};
	capture_cmd c = parse(13, argv);
	assert_int_equal(c.mode, CAPTURE_COMPILE);
	assert_string_equal(c.output, "out/a.o");
	assert_int_equal(c.sources.len, 1);
	assert_string_equal(c.sources.items[0].path, "src/a.c");
	assert_int_equal(c.sources.items[0].lang, CAPTURE_LANG_C);
	assert_true(has_flag(&c, "-O2") && has_flag(&c, "-DX=1") && has_flag(&c, "-I") && has_flag(&c, "inc"));
	assert_true(has_flag(&c, "-fno-tree-vrp"));
	/* dependency files are the native build's */
	assert_false(has_flag(&c, "-MD") || has_flag(&c, "-MF") || has_flag(&c, "x.d") || has_flag(&c, "-Wp,-MMD,y.d"));
	assert_false(has_flag(&c, "-c") || has_flag(&c, "-o") || has_flag(&c, "out/a.o"));
	capture_cmd_free(&c);
}

static void test_pass_lines(void **state)
{
	(void)state;
	const char *v1[] = {"--version"};
	const char *v2[] = {"-E", "a.c"};
	const char *v3[] = {"-S", "a.c", "-o", "a.s"};
	const char *v4[] = {"-v"};
	const char *v5[] = {"-print-prog-name=ld"};
	const char *v6[] = {"-M", "a.c"};
	const char *v7[] = {"-c", "x.o"};   /* -c with no source compiles nothing */
	const char **all[] = {v1, v2, v3, v4, v5, v6, v7};
	int n[] = {1, 2, 4, 1, 1, 2, 2};
	for (int i = 0; i < 7; i++) {
		capture_cmd c = parse(n[i], all[i]);
		assert_int_equal(c.mode, CAPTURE_PASS);
		capture_cmd_free(&c);
	}
}

static void test_link_line(void **state)
{
	(void)state;
	const char *argv[] = {"-o", "prog", "main.o", "-Llib", "-L", "lib2", "-Wl,--start-group,-lfoo,x.a,--end-group",
	                      "-lbar", "-Wl,--whole-archive", "w.a", "-Wl,--no-whole-archive", "-u", "sym", "-static",
	                      "extra.c", "-x", "c++", "cxx.txt", "-x", "none", "fast.S"};
	capture_cmd c = parse(21, argv);
	assert_int_equal(c.mode, CAPTURE_LINK);
	assert_string_equal(c.output, "prog");
	assert_true(c.static_link);
	assert_int_equal(c.libdirs.len, 2);
	assert_string_equal(c.libdirs.items[1], "lib2");
	assert_int_equal(c.undefs.len, 1);
	capture_item_kind want[] = {CAPTURE_ITEM_FILE, CAPTURE_ITEM_GROUP_START, CAPTURE_ITEM_LIB, CAPTURE_ITEM_FILE,
	                            CAPTURE_ITEM_GROUP_END, CAPTURE_ITEM_LIB, CAPTURE_ITEM_WHOLE_ON, CAPTURE_ITEM_FILE,
	                            CAPTURE_ITEM_WHOLE_OFF, CAPTURE_ITEM_SOURCE, CAPTURE_ITEM_SOURCE, CAPTURE_ITEM_SOURCE};
	assert_int_equal(c.items.len, sizeof want / sizeof *want);
	for (size_t i = 0; i < c.items.len; i++)
		assert_int_equal(c.items.items[i].kind, want[i]);
	assert_string_equal(c.items.items[2].arg, "foo");
	assert_int_equal(c.sources.len, 3);
	assert_int_equal(c.sources.items[1].lang, CAPTURE_LANG_CXX);
	assert_string_equal(c.sources.items[1].xlang, "c++");
	assert_int_equal(c.sources.items[2].lang, CAPTURE_LANG_ASM);
	capture_cmd_free(&c);
	/* values of linker options are not inputs: -rpath DIR, -soname NAME, -u SYM, -L DIR */
	const char *rp[] = {"-o", "p", "-Wl,-rpath,/opt/lib", "-Wl,-rpath", "-Wl,/usr/local/lib", "-Xlinker", "-soname",
	                    "-Xlinker", "libp.so.1", "-Wl,-u,needed", "-Wl,-L,ldir", "-Wl,--undefined=also", "m.o"};
	c = parse(13, rp);
	assert_int_equal(c.items.len, 1);
	assert_string_equal(c.items.items[0].arg, "m.o");
	assert_int_equal(c.undefs.len, 2);
	assert_string_equal(c.undefs.items[0], "needed");
	assert_string_equal(c.undefs.items[1], "also");
	assert_int_equal(c.libdirs.len, 1);
	assert_string_equal(c.libdirs.items[0], "ldir");
	capture_cmd_free(&c);
	const char *sh[] = {"-shared", "-fPIC", "a.o", "-o", "libx.so"};
	c = parse(5, sh);
	assert_true(c.shared && c.mode == CAPTURE_LINK);
	capture_cmd_free(&c);
}

/* Direct linker command lines (ld, ld.lld): -o, -l, -L, -e, -T in their
 * separate, joined and long forms; -r; --version; the names of linkers. */
static void test_ld_line(void **state)
{
	(void)state;
	const char *argv[] = {"-m", "elf_x86_64", "-r", "-o", "vmlinux.o", "--whole-archive", "vmlinux.a",
	                      "--no-whole-archive", "--start-group", "-l", "ext", "-Llib", "--library-path=l2",
	                      "--library=y", "lib/lib.a", "--end-group", "-z", "noexecstack", "--build-id", "tail.o"};
	capture_cmd c;
	capture_ld_parse(&c, 20, (char **)argv);
	assert_int_equal(c.mode, CAPTURE_LINK);
	assert_true(c.relocatable);
	assert_string_equal(c.output, "vmlinux.o");
	assert_null(c.entry);
	assert_false(c.script);
	capture_item_kind want[] = {CAPTURE_ITEM_WHOLE_ON, CAPTURE_ITEM_FILE, CAPTURE_ITEM_WHOLE_OFF,
	                            CAPTURE_ITEM_GROUP_START, CAPTURE_ITEM_LIB, CAPTURE_ITEM_LIB, CAPTURE_ITEM_FILE,
	                            CAPTURE_ITEM_GROUP_END, CAPTURE_ITEM_FILE};
	assert_int_equal(c.items.len, sizeof want / sizeof *want);
	for (size_t i = 0; i < c.items.len; i++)
		assert_int_equal(c.items.items[i].kind, want[i]);
	assert_string_equal(c.items.items[4].arg, "ext");
	assert_string_equal(c.items.items[5].arg, "y");
	assert_string_equal(c.items.items[8].arg, "tail.o");   /* --build-id takes no separate value */
	assert_int_equal(c.libdirs.len, 2);
	assert_string_equal(c.libdirs.items[1], "l2");
	capture_cmd_free(&c);
	const char *fin[] = {"-o", "vmlinux", "-T", "arch/x86/kernel/vmlinux.lds", "--entry=startup_64", "vmlinux.o",
	                     "-Ttext=0x1000"};
	capture_ld_parse(&c, 7, (char **)fin);
	assert_true(c.script && !c.relocatable);
	assert_string_equal(c.entry, "startup_64");
	assert_int_equal(c.items.len, 1);
	capture_cmd_free(&c);
	const char *sec[] = {"-e", "go", "-Ttext=0x1000", "a.o"};
	capture_ld_parse(&c, 4, (char **)sec);
	assert_false(c.script);   /* a section address, not a script */
	assert_string_equal(c.entry, "go");
	capture_cmd_free(&c);
	const char *ver[] = {"--version"}, *none[] = {"-m", "elf_x86_64"};
	capture_ld_parse(&c, 1, (char **)ver);
	assert_int_equal(c.mode, CAPTURE_PASS);
	capture_cmd_free(&c);
	capture_ld_parse(&c, 2, (char **)none);
	assert_int_equal(c.mode, CAPTURE_PASS);
	capture_cmd_free(&c);
	const char *yes[] = {"ld", "ld.lld", "ld.bfd", "ld.gold", "ld.lld-22", "x86_64-linux-gnu-ld",
	                     "x86_64-linux-gnu-ld.bfd", "ld-2.40"};
	const char *no[] = {"ldd", "ld.so", "ld64.lld", "ldconfig", "ld.lld-", "gold", "cc", "ld.lld-22x"};
	for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
		assert_true(capture_is_linker_name(yes[i]));
	for (size_t i = 0; i < sizeof no / sizeof *no; i++)
		assert_false(capture_is_linker_name(no[i]));
}

/* The object rewriters the wrapper follows (capture/rewrite.h), and names
 * that are not one. */
static void test_rewriter_names(void **state)
{
	(void)state;
	const char *yes[] = {"objcopy", "strip", "llvm-objcopy", "llvm-strip-22", "x86_64-linux-gnu-objcopy",
	                     "x86_64-linux-gnu-strip", "objcopy-2.40"};
	const char *no[] = {"objdump", "stripper", "gstrip", "objcopy-", "llvm-objcopy-22x", "cc", "ld", "strip.sh"};
	for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
		assert_true(capture_is_rewriter_name(yes[i]));
	for (size_t i = 0; i < sizeof no / sizeof *no; i++)
		assert_false(capture_is_rewriter_name(no[i]));
}

/* @FILE response files: quotes, backslashes, nesting, an unreadable @FILE
 * kept as a word, an unterminated quote read to the end, an empty file. */
static void test_response_files(void **state)
{
	(void)state;
	char dir[] = "/tmp/facet-test-rsp-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char a[64], b[64], e[64], q[64], arg_a[70], arg_e[70], arg_q[70];
	snprintf(a, sizeof a, "%s/a.rsp", dir);
	snprintf(b, sizeof b, "%s/b.rsp", dir);
	snprintf(e, sizeof e, "%s/e.rsp", dir);
	snprintf(q, sizeof q, "%s/q.rsp", dir);
	FILE *f = fopen(a, "w");
	fprintf(f, "-r -o 'out dir/x.o'\n\"one two.o\" back\\ slash.o @%s", b);
	fclose(f);
	f = fopen(b, "w");
	fputs("  nested.o\t", f);
	fclose(f);
	f = fopen(e, "w");
	fclose(f);
	f = fopen(q, "w");
	fputs("-o p 'unterminated.o", f);
	fclose(f);
	snprintf(arg_a, sizeof arg_a, "@%s", a);
	snprintf(arg_e, sizeof arg_e, "@%s", e);
	snprintf(arg_q, sizeof arg_q, "@%s", q);
	const char *argv[] = {arg_a, arg_e, "@/nonexistent/facet.rsp", "last.o"};
	capture_cmd c;
	capture_ld_parse(&c, 4, (char **)argv);
	assert_true(c.relocatable);
	assert_string_equal(c.output, "out dir/x.o");
	const char *want[] = {"one two.o", "back slash.o", "nested.o", "@/nonexistent/facet.rsp", "last.o"};
	assert_int_equal(c.items.len, 5);
	for (size_t i = 0; i < 5; i++)
		assert_string_equal(c.items.items[i].arg, want[i]);
	capture_cmd_free(&c);
	const char *qv[] = {arg_q};
	capture_ld_parse(&c, 1, (char **)qv);
	assert_string_equal(c.output, "p");
	assert_int_equal(c.items.len, 1);
	assert_string_equal(c.items.items[0].arg, "unterminated.o");
	capture_cmd_free(&c);
	/* the driver reads them too */
	const char *drv[] = {"-c", arg_q};
	capture_cmd_parse(&c, 2, (char **)drv);
	assert_string_equal(c.output, "p");
	capture_cmd_free(&c);
	unlink(a), unlink(b), unlink(e), unlink(q);
	rmdir(dir);
}

static void test_lang(void **state)
{
	(void)state;
	assert_int_equal(capture_lang_of("a.c", NULL, false), CAPTURE_LANG_C);
	assert_int_equal(capture_lang_of("a.c", NULL, true), CAPTURE_LANG_CXX);   /* g++ a.c is C++ */
	assert_int_equal(capture_lang_of("a.cpp", NULL, false), CAPTURE_LANG_CXX);
	assert_int_equal(capture_lang_of("a.s", NULL, false), CAPTURE_LANG_ASM);
	assert_int_equal(capture_lang_of("-", NULL, false), CAPTURE_LANG_STDIN);
	assert_int_equal(capture_lang_of("a.o", NULL, false), -1);
	assert_int_equal(capture_lang_of("liba.a", NULL, false), -1);
}

/* ------------------------------------------------------------ ELF objects */

typedef struct obj { unsigned char b[4096]; size_t n; } obj;

/* A relocatable ELF object: defines "def_sym" (global), "weak_def" (weak),
 * refers to "undef_sym" (global) and "weak_ref" (weak), has a local "local". */
static void make_object(obj *o)
{
	memset(o, 0, sizeof *o);
	const char strtab[] = "\0def_sym\0weak_def\0undef_sym\0weak_ref\0local";
	Elf64_Sym syms[6] = {{0}};
	syms[1] = (Elf64_Sym){.st_name = 1, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), .st_shndx = 1};
	syms[2] = (Elf64_Sym){.st_name = 9, .st_info = ELF64_ST_INFO(STB_WEAK, STT_FUNC), .st_shndx = 1};
	syms[3] = (Elf64_Sym){.st_name = 18, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE), .st_shndx = SHN_UNDEF};
	syms[4] = (Elf64_Sym){.st_name = 28, .st_info = ELF64_ST_INFO(STB_WEAK, STT_NOTYPE), .st_shndx = SHN_UNDEF};
	syms[5] = (Elf64_Sym){.st_name = 37, .st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC), .st_shndx = 1};
	size_t sym_off = 64, str_off = sym_off + sizeof syms, sh_off = (str_off + sizeof strtab + 7) & ~(size_t)7;
	Elf64_Ehdr h = {.e_type = ET_REL, .e_machine = EM_X86_64, .e_version = 1, .e_shoff = sh_off,
	                .e_ehsize = sizeof h, .e_shentsize = sizeof(Elf64_Shdr), .e_shnum = 3};
	memcpy(h.e_ident, ELFMAG, SELFMAG);
	h.e_ident[EI_CLASS] = ELFCLASS64;
	h.e_ident[EI_DATA] = ELFDATA2LSB;
	Elf64_Shdr sh[3] = {{0}};
	sh[1] = (Elf64_Shdr){.sh_type = SHT_SYMTAB, .sh_offset = sym_off, .sh_size = sizeof syms, .sh_link = 2,
	                     .sh_entsize = sizeof(Elf64_Sym)};
	sh[2] = (Elf64_Shdr){.sh_type = SHT_STRTAB, .sh_offset = str_off, .sh_size = sizeof strtab};
	memcpy(o->b, &h, sizeof h);
	memcpy(o->b + sym_off, syms, sizeof syms);
	memcpy(o->b + str_off, strtab, sizeof strtab);
	memcpy(o->b + sh_off, sh, sizeof sh);
	o->n = sh_off + sizeof sh;
}

static void test_elf_symbols(void **state)
{
	(void)state;
	obj o;
	make_object(&o);
	assert_int_equal(capture_file_kind(o.b, o.n), CAPTURE_FILE_OBJECT);
	capture_syms s = {0};
	facet_error err = {0};
	assert_true(capture_elf_symbols(o.b, o.n, "t.o", &s, &err));
	assert_int_equal(s.defined.len, 2);
	assert_string_equal(s.defined.items[0], "def_sym");
	assert_string_equal(s.defined.items[1], "weak_def");
	assert_int_equal(s.undefined.len, 1);   /* a weak reference pulls no member */
	assert_string_equal(s.undefined.items[0], "undef_sym");
	capture_syms_free(&s);
}

static void expect_elf_error(obj *o, const char *want)
{
	capture_syms s = {0};
	facet_error err = {0};
	assert_false(capture_elf_symbols(o->b, o->n, "bad.o", &s, &err));
	assert_non_null(strstr(err.msg, "bad.o"));
	if (!strstr(err.msg, want))
		fail_msg("'%s' does not say '%s'", err.msg, want);
	capture_syms_free(&s);
}

static void test_elf_damaged(void **state)
{
	(void)state;
	obj o;
	Elf64_Ehdr h;
	make_object(&o);
	memcpy(&h, o.b, sizeof h);
	h.e_shoff = 1u << 30;   /* section headers past the end */
	memcpy(o.b, &h, sizeof h);
	expect_elf_error(&o, "outside the file");

	make_object(&o);
	memcpy(&h, o.b, sizeof h);
	Elf64_Shdr sh;
	memcpy(&sh, o.b + h.e_shoff + sizeof sh, sizeof sh);
	sh.sh_size = 1u << 20;   /* a symbol table larger than the file */
	memcpy(o.b + h.e_shoff + sizeof sh, &sh, sizeof sh);
	expect_elf_error(&o, "malformed symbol table");

	make_object(&o);
	memcpy(&h, o.b, sizeof h);
	Elf64_Sym sym;
	memcpy(&sym, o.b + 64 + sizeof sym, sizeof sym);
	sym.st_name = 5000;   /* a name outside the string table */
	memcpy(o.b + 64 + sizeof sym, &sym, sizeof sym);
	expect_elf_error(&o, "string table");

	make_object(&o);
	for (size_t cut = 0; cut < o.n; cut += 7) {   /* every truncation: an error or fewer symbols, never a crash */
		capture_syms s = {0};
		facet_error err = {0};
		capture_elf_symbols(o.b, cut, "cut.o", &s, &err);
		capture_syms_free(&s);
	}
}

/* ------------------------------------------------------------ archives */

typedef struct buf { unsigned char b[16384]; size_t n; } buf;

static void put_member(buf *a, const char *name, const void *data, size_t size)
{
	char hdr[61];
	snprintf(hdr, sizeof hdr, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", name, "0", "0", "0", "644", size);
	memcpy(a->b + a->n, hdr, 60);
	a->n += 60;
	memcpy(a->b + a->n, data, size);
	a->n += size;
	if (size & 1)
		a->b[a->n++] = '\n';
}

static void test_archive(void **state)
{
	(void)state;
	buf a = {.n = 8};
	memcpy(a.b, "!<arch>\n", 8);
	obj o;
	make_object(&o);
	const char names[] = "a_rather_long_member_name.o/\n";
	put_member(&a, "/", "\0\0\0\0", 4);             /* symbol table: skipped */
	put_member(&a, "//", names, sizeof names - 1);   /* long names */
	put_member(&a, "short.o/", o.b, o.n);
	put_member(&a, "/0", "odd", 3);                  /* odd size: padded */
	put_member(&a, "#1/8", "bsdname!data", 12);      /* BSD: the name precedes the data */
	capture_members m = {0};
	facet_error err = {0};
	assert_int_equal(capture_file_kind(a.b, a.n), CAPTURE_FILE_ARCHIVE);
	assert_true(capture_archive_members("lib.a", a.b, a.n, &m, &err));
	assert_int_equal(m.len, 3);
	assert_string_equal(m.items[0].name, "short.o");
	assert_int_equal(m.items[0].size, o.n);
	assert_memory_equal(m.items[0].data, o.b, o.n);
	assert_string_equal(m.items[1].name, "a_rather_long_member_name.o");
	assert_int_equal(m.items[1].size, 3);
	assert_string_equal(m.items[2].name, "bsdname!");
	assert_int_equal(m.items[2].size, 4);
	/* the member's bytes hash like the object file's: the key that follows it */
	char h1[CAPTURE_HASH_HEX], h2[CAPTURE_HASH_HEX];
	capture_hash_mem(m.items[0].data, m.items[0].size, h1);
	capture_hash_mem(o.b, o.n, h2);
	assert_string_equal(h1, h2);
	capture_members_free(&m);

	/* damaged: every truncation is an error naming the archive, or fewer members */
	for (size_t cut = 9; cut < a.n; cut++) {
		capture_members t = {0};
		facet_error e = {0};
		if (!capture_archive_members("cut.a", a.b, cut, &t, &e))
			assert_non_null(strstr(e.msg, "cut.a"));
		capture_members_free(&t);
	}
	buf bad = {.n = 8};
	memcpy(bad.b, "!<arch>\n", 8);
	put_member(&bad, "/99", "x", 1);   /* a long name with no name table */
	capture_members t = {0};
	facet_error e = {0};
	assert_false(capture_archive_members("bad.a", bad.b, bad.n, &t, &e));
	assert_non_null(strstr(e.msg, "bad.a"));
	capture_members_free(&t);
	buf thin = {.n = 8};
	memcpy(thin.b, "!<thin>\n", 8);
	char hdr[61];
	snprintf(hdr, sizeof hdr, "%-16s%-12s%-6s%-6s%-8s%-10d`\n", "/no/such/file.o/", "0", "0", "0", "644", 10);
	memcpy(thin.b + thin.n, hdr, 60);
	thin.n += 60;
	facet_error e2 = {0};
	assert_false(capture_archive_members("thin.a", thin.b, thin.n, &t, &e2));
	assert_non_null(strstr(e2.msg, "/no/such/file.o"));
	capture_members_free(&t);
}

/* CMake's compiler identification and try_compile links are probes; a
 * program whose own name merely contains the word is not. */
static void test_probe_output(void **state)
{
	(void)state;
	assert_true(capture_probe_output("/b/_build/CMakeFiles/3.25.1/CompilerIdC/a.out"));
	assert_true(capture_probe_output("/b/_build/CMakeFiles/CMakeScratch/TryCompile-x1/cmTC_5a1b2"));
	assert_true(capture_probe_output("CMakeFiles/CMakeTmp/cmTC_1"));
	assert_false(capture_probe_output("/b/_build/tools/tiffcp"));
	assert_false(capture_probe_output("/b/MyCMakeFiles/prog"));
	assert_false(capture_probe_output("/b/CMakeFiles"));
}

/* autoconf's conftest compiles and links, CMake's try_compile: probes; a
 * real unit that merely sits beside them is not. */
static void test_is_probe(void **state)
{
	(void)state;
	const char *cc[] = {"-O2", "-c", "conftest.c", "-o", "conftest.o"};
	const char *ld[] = {"-o", "conftest", "conftest.o", "-lm"};
	const char *cl[] = {"-g", "-o", "conftest", "conftest.c"};
	const char *real[] = {"-c", "util.c", "-o", "conftest.o"};
	const char *mixed[] = {"-o", "conftest", "conftest.c", "util.c"};
	const char *prog[] = {"-o", "prog", "conftest.o"};
	const char *cm[] = {"-c", "src.c", "-o", "CMakeFiles/cmTC_1.dir/src.c.o"};
	capture_cmd c;
	c = parse(5, cc), assert_true(capture_is_probe(&c, "/b")), capture_cmd_free(&c);
	c = parse(4, ld), assert_true(capture_is_probe(&c, "/b")), capture_cmd_free(&c);
	c = parse(4, cl), assert_true(capture_is_probe(&c, "/b")), capture_cmd_free(&c);
	c = parse(4, real), assert_false(capture_is_probe(&c, "/b")), capture_cmd_free(&c);
	c = parse(4, mixed), assert_false(capture_is_probe(&c, "/b")), capture_cmd_free(&c);
	c = parse(3, prog), assert_false(capture_is_probe(&c, "/b")), capture_cmd_free(&c);
	c = parse(4, cm), assert_false(capture_is_probe(&c, "/b/_build")), capture_cmd_free(&c);
	c = parse(4, cm), assert_true(capture_is_probe(&c, "/b/_build/CMakeFiles/CMakeScratch/TryCompile-Ab")),
	capture_cmd_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compile_line), cmocka_unit_test(test_pass_lines), cmocka_unit_test(test_link_line),
		cmocka_unit_test(test_lang),         cmocka_unit_test(test_elf_symbols), cmocka_unit_test(test_elf_damaged),
		cmocka_unit_test(test_archive),      cmocka_unit_test(test_probe_output),
		cmocka_unit_test(test_is_probe),     cmocka_unit_test(test_ld_line),
		cmocka_unit_test(test_rewriter_names),
		cmocka_unit_test(test_response_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
