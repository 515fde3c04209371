/* rewrite.h — object rewriters observed: objcopy and strip (GNU, LLVM,
 * versioned and triplet names) run by the build after a compile, in place
 * (`objcopy --add-section ... x.o`, `strip -g x.o`) or into another file
 * (`objcopy in.o out.o`, `strip -o out.o in.o`).
 *
 * A rewritten object has a new hash, so its unit (keyed by the object's hash,
 * capture/wrap.h) would no longer be found. The wrapper runs such a tool
 * natively, untouched, and writes a rewrite record: for each ELF object the
 * run wrote, its new hash, the hash it was made from, and whether its global
 * symbols (the definitions and strong references the linker and extract's
 * archive rule read) are the same. The manifest follows a rewritten object
 * back to its unit: with the same symbols it keeps the unit's bitcode; with
 * other symbols it is missing, with a reason naming the tool. */
#ifndef FACET_CAPTURE_REWRITE_H
#define FACET_CAPTURE_REWRITE_H

#include <stdbool.h>

/* objcopy, strip, llvm-objcopy(-22), x86_64-linux-gnu-strip, ... */
bool capture_is_rewriter_name(const char *name);

/* Runs the real tool real[0..] (argv as the build gave it, argv[0] the
 * wrapper's name), records what it rewrote under DIR/records (dir), and
 * returns the tool's exit status. cwd: the build's directory; t: the time
 * stamp the record carries. */
int capture_rewrite_run(const char *dir, const char *cwd, const char *name, int argc, char **argv, char **real,
                        long long t);

#endif
