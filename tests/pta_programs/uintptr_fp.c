/* uintptr_fp.c — a settings store whose values are integers (uintptr_t):
 * numbers, and callbacks stored as (uintptr_t)fn and cast back on use;
 * a printer callback is kept in an ordinary function pointer.
 *
 * Covers: a function pointer stored as an integer (ptrtoint) and cast back
 * (inttoptr).  What Andersen's analysis gives at the inttoptr site depends
 * on how it treats integers: carried through as pointers, the set is the
 * two callbacks stored in the store (report_done, report_error, merged by
 * the variable index); taken as "unknown" (with the type filter), it is
 * every address-taken function of the call's type, print_line too.  Both
 * are right; neither may miss what runs.  The printer site involves no
 * integer and is exact. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "observe.h"

struct setting {
	const char *key;
	uintptr_t value;
};

static struct setting settings[8];
static int nsettings;

static int errors;

static void report_error(const char *msg)
{
	OBSERVE_TARGET();
	errors++;
	printf("error: %s\n", msg);
}

static void report_done(const char *msg)
{
	OBSERVE_TARGET();
	printf("done: %s\n", msg);
}

static void print_line(const char *msg)
{
	OBSERVE_TARGET();
	puts(msg);
}

static void set(const char *key, uintptr_t value)
{
	if (nsettings < 8) {
		settings[nsettings].key = key;
		settings[nsettings].value = value;
		nsettings++;
	}
}

static uintptr_t get(const char *key)
{
	for (int i = 0; i < nsettings; i++)
		if (strcmp(settings[i].key, key) == 0)
			return settings[i].value;
	return 0;
}

int main(void)
{
	void (*printer)(const char *) = print_line;

	set("retries", 3);
	set("on_error", (uintptr_t)report_error);
	set("on_done", (uintptr_t)report_done);

	for (uintptr_t i = 0; i < get("retries"); i++) {
		void (*cb)(const char *) = (void (*)(const char *))get(i < 2 ? "on_error" : "on_done");
		if (cb)
			ICALL(cb("attempt")); /* @r0-superset-of-observed @r0-within: print_line report_done report_error */
	}
	ICALL(printer("finished")); /* @r0: print_line */
	return errors == 2 ? 0 : 1;
}
