/* registry.c — one half of the cross_tu program: stores the transforms
 * that main.c registers and calls them, and supplies a default transform
 * (keep) of its own that main.c calls.  See main.c. */
#include <string.h>
#include "../observe.h"
#include "registry.h"

#define MAXENTRIES 8

static struct {
	const char *name;
	transform_fn fn;
} entries[MAXENTRIES];
static int nentries;

static int keep(char *buf, int len)
{
	OBSERVE_TARGET();
	(void)buf;
	return len;
}

int registry_add(const char *name, transform_fn fn)
{
	if (nentries == MAXENTRIES)
		return -1;
	entries[nentries].name = name;
	entries[nentries].fn = fn;
	nentries++;
	return 0;
}

int registry_apply_all(char *buf, int len)
{
	for (int i = 0; i < nentries; i++)
		len = ICALL(entries[i].fn(buf, len)); /* @r0: reverse strip_spaces upcase */
	return len;
}

transform_fn registry_find(const char *name)
{
	for (int i = 0; i < nentries; i++)
		if (strcmp(entries[i].name, name) == 0)
			return entries[i].fn;
	return keep;
}
