/* The paper's running example in miniature (Figure 1): a module struct with
 * three same-signature fields, module tables initialised by position with
 * NULL slots, an array of module pointers, and module->create_loc_conf(cf)
 * in a loop. R± at that site is exactly the functions stored into
 * create_loc_conf; the siblings' functions are refuted by Prune-Store. */
#include <stdio.h>
#include <stdlib.h>

typedef struct conf { int depth; void *main, *srv, *loc; } conf_t;

typedef struct {
	int (*preconfiguration)(conf_t *cf);
	void *(*create_main_conf)(conf_t *cf);
	void *(*create_srv_conf)(conf_t *cf);
	void *(*create_loc_conf)(conf_t *cf);
	char *(*merge_loc_conf)(conf_t *cf, void *prev, void *conf);
} http_module_t;

typedef struct module { const char *name; void *ctx; int index; } module_t;

static void *core_create_main_conf(conf_t *cf) { (void)cf; return malloc(8); }
static void *core_create_srv_conf(conf_t *cf) { (void)cf; return malloc(8); }
static void *core_create_loc_conf(conf_t *cf) { (void)cf; return malloc(16); }
static char *core_merge_loc_conf(conf_t *cf, void *p, void *c) { (void)cf; (void)p; (void)c; return NULL; }
static int core_preconfiguration(conf_t *cf) { cf->depth = 1; return 0; }

static void *gzip_create_conf(conf_t *cf) { (void)cf; return malloc(24); }
static char *gzip_merge_conf(conf_t *cf, void *p, void *c) { (void)cf; (void)p; (void)c; return NULL; }

static void *upstream_create_conf(conf_t *cf) { (void)cf; return malloc(32); }   /* a srv conf */
static void *map_create_conf(conf_t *cf) { (void)cf; return malloc(40); }        /* a main conf */
static void *rewrite_create_loc_conf(conf_t *cf) { (void)cf; return malloc(48); }

static http_module_t core_module_ctx = {
	core_preconfiguration, core_create_main_conf, core_create_srv_conf, core_create_loc_conf,
	core_merge_loc_conf,
};
static http_module_t gzip_module_ctx = {NULL, NULL, NULL, gzip_create_conf, gzip_merge_conf};
static http_module_t upstream_module_ctx = {NULL, NULL, upstream_create_conf, NULL, NULL};
static http_module_t map_module_ctx = {NULL, map_create_conf, NULL, NULL, NULL};
static http_module_t rewrite_module_ctx = {NULL, NULL, NULL, rewrite_create_loc_conf, NULL};

static module_t core_module = {"core", &core_module_ctx, 0};
static module_t gzip_module = {"gzip", &gzip_module_ctx, 1};
static module_t upstream_module = {"upstream", &upstream_module_ctx, 2};
static module_t map_module = {"map", &map_module_ctx, 3};
static module_t rewrite_module = {"rewrite", &rewrite_module_ctx, 4};

module_t *modules[] = {&core_module, &gzip_module, &upstream_module, &map_module, &rewrite_module, NULL};

/* Walks a module table as an array of hooks (a variable index): the points-to
 * analysis must then merge the table's fields, so R0 at the dispatch below
 * holds every function of the three sibling fields (FLTA keeps them all). */
__attribute__((noinline)) int count_hooks(http_module_t *m, int n)
{
	void **hook = (void **)m;
	int count = 0;
	for (int i = 0; i < n; i++)
		count += hook[i] != NULL;
	return count;
}

__attribute__((noinline)) void http_block(conf_t *cf, module_t **mods)
{
	for (int m = 0; mods[m]; m++) {
		http_module_t *module = mods[m]->ctx;
		cf->depth += count_hooks(module, cf->depth);
		if (module->create_main_conf)
			cf->main = module->create_main_conf(cf); /* SITE main */
		if (module->create_srv_conf)
			cf->srv = module->create_srv_conf(cf); /* SITE srv */
		if (module->create_loc_conf)
			cf->loc = module->create_loc_conf(cf); /* SITE loc */
	}
}

int main(int argc, char **argv)
{
	(void)argv;
	conf_t cf = {argc, 0, 0, 0};
	http_block(&cf, modules);
	printf("%d\n", cf.depth);
	return 0;
}

/* What facet must answer (tests/facet/check_facet.py).
 * R0: count_hooks merges each module table's fields, so FLTA keeps every
 * void *(conf_t *) function at all three sites. The tables store 2, 2 and 3
 * functions into create_main_conf, create_srv_conf and create_loc_conf.
 *
 // EXPECT loc field: http_module_t.create_loc_conf
 // EXPECT loc r0: core_create_main_conf core_create_srv_conf core_create_loc_conf gzip_create_conf upstream_create_conf map_create_conf rewrite_create_loc_conf
 // EXPECT loc rulesonly: core_create_loc_conf gzip_create_conf rewrite_create_loc_conf
 // EXPECT loc rplus: core_create_main_conf core_create_srv_conf core_create_loc_conf gzip_create_conf upstream_create_conf map_create_conf rewrite_create_loc_conf
 // EXPECT loc rpm: core_create_loc_conf gzip_create_conf rewrite_create_loc_conf
 // EXPECT loc decision gzip_create_conf: add supported Add-Witness true
 // EXPECT loc decision core_create_loc_conf: add supported Add-Witness true
 // EXPECT loc decision map_create_conf: prune supported Prune-Store pi_proj
 // EXPECT loc decision upstream_create_conf: prune supported Prune-Store pi_proj
 // EXPECT loc decision core_create_main_conf: prune supported Prune-Store pi_proj
 // EXPECT loc abstains: no
 // EXPECT loc question: none
 *
 * The two sibling sites are left with two targets each after Prune-Store:
 * they abstain (τ = 2), which keeps the refutations and adds nothing.
 // EXPECT main field: http_module_t.create_main_conf
 // EXPECT main rpm: core_create_main_conf map_create_conf
 // EXPECT main rplus: core_create_main_conf core_create_srv_conf core_create_loc_conf gzip_create_conf upstream_create_conf map_create_conf rewrite_create_loc_conf
 // EXPECT main abstains: yes
 // EXPECT srv rpm: core_create_srv_conf upstream_create_conf
 // EXPECT srv decision rewrite_create_loc_conf: prune supported Prune-Store pi_proj
 */
