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

/* A call with an argument of the unknown type: clang keeps no callee,
 * only the written name, which is what is resolved. */
static int takes(mystery_t *m) { return m != 0; }
#define CHECK(m) takes(m)
int caller2(mystery_t *m)
{
	int r = takes(m);                          /* -> takes@m.c */
	return r + CHECK(m);                       /* -> takes@m.c */
}

/* An argument no header declares (an enumerator of a generated header):
 * clang keeps the call as a recovery expression, still a call of note. */
void note(int code, int fatal);
void fails(void)
{
	note(1, CODE_FROM_GENERATED_HEADER);       /* -> note */
}
