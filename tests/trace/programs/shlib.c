/* shlib.c — indirect calls into shared libraries: libc's strlen, lib_inc of
 * shlib_lib.so (declared in the module, so the trace names it), and a static
 * function of that library the module never names (recorded as "?").
 * One process per run.  @trace-records: 1 */
#include <stdio.h>
#include <string.h>

int lib_inc(int x);
int (*lib_get_hidden(void))(int);

static size_t (*volatile len)(const char *) = strlen;
static int (*volatile inc)(int) = lib_inc;

int main(void)
{
	int sum = (int)len("abc"); /* @trace: strlen=1 */
	for (int i = 0; i < 3; i++)
		sum += inc(i); /* @trace: lib_inc=3 */
	int (*volatile hidden)(int) = lib_get_hidden();
	sum += hidden(2); /* @trace: ?=1 */
	return sum == 3 + 6 + 6 ? 0 : 1;
}
