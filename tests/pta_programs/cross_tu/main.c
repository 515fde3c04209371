/* main.c — the other half of the cross_tu program (with registry.c): the
 * transforms are defined and registered here, called from registry.c, and
 * registry.c's keep() is called from here.  Compile both files and give
 * both .bc files to facet, which links them into one module.
 *
 * Covers: a callback registered in one translation unit and called in
 * another, both ways.  registry_find() returns any registered transform or
 * keep, so the site in main gets all four; the site in registry.c gets
 * only the registered three.  count_chars has the same IR type but is
 * never registered. */
#include <ctype.h>
#include <stdio.h>
#include "../observe.h"
#include "registry.h"

static int upcase(char *buf, int len)
{
	OBSERVE_TARGET();
	for (int i = 0; i < len; i++)
		buf[i] = (char)toupper((unsigned char)buf[i]);
	return len;
}

static int strip_spaces(char *buf, int len)
{
	OBSERVE_TARGET();
	int j = 0;
	for (int i = 0; i < len; i++)
		if (buf[i] != ' ')
			buf[j++] = buf[i];
	return j;
}

static int reverse(char *buf, int len)
{
	OBSERVE_TARGET();
	for (int i = 0, j = len - 1; i < j; i++, j--) {
		char t = buf[i];
		buf[i] = buf[j];
		buf[j] = t;
	}
	return len;
}

static int count_chars(char *buf, int len)
{
	OBSERVE_TARGET();
	(void)buf;
	return len;
}

int main(void)
{
	char buf[32] = "a cross unit call";
	int len = 17;
	int (*measure)(char *, int) = count_chars;

	registry_add("upcase", upcase);
	registry_add("strip", strip_spaces);
	registry_add("reverse", reverse);
	len = registry_apply_all(buf, len);

	transform_fn again = registry_find("reverse");
	len = ICALL(again(buf, len)); /* @r0: keep reverse strip_spaces upcase */
	transform_fn fallback = registry_find("missing");
	len = ICALL(fallback(buf, len)); /* @r0: keep reverse strip_spaces upcase */
	len = ICALL(measure(buf, len)); /* @r0: count_chars */
	printf("%.*s\n", len, buf);
	return 0;
}
