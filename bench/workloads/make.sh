# make: GNU make's own regression suite (tests/run_make_tests.pl, about a
# thousand makefiles over every feature: functions, variables and their
# flavours, pattern and suffix rules, implicit-rule search, vpath, archives,
# -j jobs and the jobserver, recursion, include and remaking makefiles,
# .ONESHELL, conditionals, target-specific variables, $(file), $(eval),
# load failures, options), then a project-style makefile run with -j2,
# -n, -p, -d, --trace, -k and -B.
set -u
cp -r "$TREE/tests" tests
# The driver replaces the environment of every make it runs by a fixed list: keep the trace file.
sed -i "s/'LD_LIBRARY_PATH',/'LD_LIBRARY_PATH', 'FACET_TRACE_OUT',/" tests/test_driver.pl
mkdir -p bin; ln -sf "$PROG" bin/make
(cd tests && timeout 800 perl ./run_make_tests.pl -srcdir "$TREE" -make "$PWD/../bin/make" >../suite.log 2>&1)
echo "suite -> $? ($(tail -3 suite.log | tr '\n' ' '))"
mkdir -p proj/src proj/lib && cd proj
for i in 1 2 3 4 5 6; do printf 'int f%d(int x) { return x + %d; }\n' $i $i >src/f$i.c; done
printf 'int main(void) { return 0; }\n' >src/main.c
cat >Makefile <<'MK'
SRCS := $(wildcard src/*.c)
OBJS := $(patsubst src/%.c,out/%.o,$(SRCS))
NAMES = $(notdir $(basename $(SRCS)))
define rule_tmpl
out/$(1).stamp: out/$(1).o ; @echo stamp $$@ > $$@
endef
$(foreach n,$(NAMES),$(eval $(call rule_tmpl,$(n))))
upper = $(shell echo $(1) | tr a-z A-Z)
vpath %.h lib
.PHONY: all clean info check
all: out/prog $(addsuffix .stamp,$(addprefix out/,$(NAMES))) info
out: ; mkdir -p $@
out/%.o: src/%.c | out
	@echo "CC $< -> $@"; cp $< $@
out/prog: $(OBJS) lib/archive.a(m1.o) lib/archive.a(m2.o)
	@cat $(filter %.o,$^) > $@
lib/archive.a(%.o): out/%.o
	@ar rc $@ $<
out/m1.o out/m2.o: | out
	@echo member > $@
info: ; @echo $(call upper,$(NAMES)) $(words $(SRCS)) $(firstword $(NAMES)) $(lastword $(NAMES)) $(sort b a c) $(subst a,A,banana) $(strip  x  y ) $(findstring an,banana) $(filter-out %.c,a.c b.h) $(join a b,1 2) $(if $(SRCS),yes,no) $(or ,x) $(and a,b) $(origin SRCS) $(flavor OBJS) $(value upper) $(abspath .) $(realpath src) $(dir src/a.c) $(suffix a.c) $(word 2,a b c) $(wordlist 1,2,a b c)
	$(file >out/list.txt,$(SRCS))
	$(info info text) $(warning warning text)
check: ; @test -f out/prog
clean: ; rm -rf out lib/archive.a
MK
run() { "$PROG" "$@" >/dev/null 2>&1; echo "make $* -> $?"; }
run -j2 all; run -n clean all; run -p -q all; run -d check; run --trace -B -j2 all; run -k nosuch all
run -C . -s clean; run -j2 --output-sync=target all; run -e SRCS=src/main.c info; run -r -R info; run -W src/f1.c all
run --eval='extra: ; @echo eval' extra; run -f /nonexistent; run -j2 -l 1 all; run --no-print-directory -w info
exit 0
