/* The definition main.c's prototype does not match. */
#include <stdio.h>

int stamp(int n)
{
	printf("%d\n", n);
	return n;
}

int later(int n, const char *s)
{
	printf("%d %s\n", n, s);
	return n;
}
