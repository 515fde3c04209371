/* param.c — a parameter declared with a function typedef (not a pointer
 * type: C adjusts it), forwarded through a wrapper into a struct field;
 * an array of function pointers built through a pointer and passed on. */
#include <stdlib.h>

typedef void free_fn(void *);
typedef int (*apply_fn)(void);

struct job { struct { free_fn *fn; void *arg; } free_args; };
struct conf { apply_fn apply; };

static struct job the_job;

static void free_obj(void *p) { (void)p; }
static void free_db(void *p) { (void)p; }
static int apply_a(void) { return 1; }
static int apply_b(void) { return 2; }

static struct conf confs[] = { { apply_a }, { apply_b } };

void create_job(free_fn fn, void *arg)
{
	the_job.free_args.fn = fn;
	the_job.free_args.arg = arg;
}

void create_job_wrapped(free_fn *fn, void *arg)
{
	create_job(fn, arg);                       /* -> create_job@param.c */
}

void run_job(void)
{
	the_job.free_args.fn(the_job.free_args.arg);   /* -> free_obj@param.c:S free_db@param.c:S */
}

void users(void)
{
	create_job(free_obj, 0);                   /* -> create_job@param.c */
	create_job_wrapped(free_db, 0);            /* -> create_job_wrapped@param.c */
}

static int run_all(apply_fn *fns, int n)
{
	int r = 0;
	for (int i = 0; i < n; i++)
		r += fns[i]();                         /* -> apply_a@param.c:S apply_b@param.c:S */
	return r;
}

int apply_confs(void)
{
	apply_fn *fns = malloc(2 * sizeof *fns);   /* -> malloc */
	for (int i = 0; i < 2; i++)
		fns[i] = confs[i].apply;
	int r = run_all(fns, 2);                   /* -> run_all@param.c */
	free(fns);                                 /* -> free */
	return r;
}
