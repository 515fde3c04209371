/* voidp.c — functions that pass through `void *`: a registration taking
 * the callback as `void *` and casting it back where it is stored, a
 * `void *` member written with a function (by assignment or in a table's
 * initializer) and cast to the function's type at the call; a `void *`
 * copied from another `void *` carries nothing (generic data). */
typedef void (*job_fn)(void *);

struct job { job_fn run; void *arg; };
struct slot { void *fn; };
struct entry { const char *name; void *fn; };

static void job_print(void *a) { (void)a; }
static void job_free(void *a) { (void)a; }
static void job_noop(void *a) { (void)a; }

static void submit(struct job *j, void *fn, void *arg)
{
	j->run = (job_fn) fn;
	j->arg = arg;
}

void start(struct job *j)
{
	submit(j, (void *) job_print, 0);        /* -> submit@voidp.c */
	j->run(j->arg);                          /* -> job_print@voidp.c:S */
}

void keep(struct slot *s)
{
	s->fn = (void *) job_free;
}

void fire(struct slot *s)
{
	((job_fn) s->fn)(0);                     /* -> job_free@voidp.c:S */
}

static struct entry table[] = { { "noop", (void *) job_noop } };

void run_entry(int i)
{
	((job_fn) table[i].fn)(0);               /* -> job_noop@voidp.c:W */
}

struct box { void *data; };

void pass(struct box *b, void *p)
{
	b->data = p;
}

void open_box(struct box *b)
{
	((job_fn) b->data)(0);                   /* -> unresolved free_db@param.c:T free_node@copy.c:T free_obj@param.c:T job_free@voidp.c:T job_noop@voidp.c:T job_print@voidp.c:T */
}
