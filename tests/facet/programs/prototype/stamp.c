/* The definition main.c's prototype does not match. */
#include <stdio.h>

int stamp(int n)
{
	printf("%d\n", n);
	return n;
}
