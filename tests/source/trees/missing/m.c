/* m.c — a header that is not there and a type nobody declares: the unit
 * is read on, only what the missing declarations touch is lost. */
#include "not_there.h"

static int kept(int x) { return x; }
struct handler { int (*run)(int); };
static struct handler h = { .run = kept };
mystery_t *lost(void);

int main(void)
{
	int r = kept(1);                           /* -> kept@m.c */
	r += h.run(2);                             /* -> kept@m.c:W */
	lost();                                    /* -> lost */
	return r;
}
