/* Sites Andersen leaves empty: objects from a library call the program does
 * not define. An initializer witnesses one field (Add-Witness fills the site
 * in both R+ and R±); nothing is ever stored into the other, so that site
 * stays empty and becomes a completion question. */
#include <stdio.h>

struct plugin {
	const char *name;
	int (*run)(int arg);
	int (*unload)(int arg);
};

static int builtin_run(int arg) { return arg + 1; }
static int other_run(int arg) { return arg * 3; }

struct plugin builtin = {"builtin", builtin_run, NULL};

/* Defined by a library facet does not see. */
extern struct plugin *plugin_lookup(const char *name);

__attribute__((noinline)) int run_plugin(const char *name, int arg)
{
	struct plugin *p = plugin_lookup(name);
	int r = p->run(arg); /* SITE run */
	return r + p->unload(arg); /* SITE unload */
}

int main(int argc, char **argv)
{
	int (*keep)(int) = argc > 5 ? other_run : builtin_run;
	printf("%d %d\n", run_plugin(argv[0], argc), keep(argc));
	return 0;
}

/*
 // EXPECT run field: plugin.run
 // EXPECT run r0: -
 // EXPECT run rplus: builtin_run
 // EXPECT run rpm: builtin_run
 // EXPECT run decision builtin_run: add supported Add-Witness true
 // EXPECT run question: none
 // EXPECT unload field: plugin.unload
 // EXPECT unload r0: -
 // EXPECT unload rpm: -
 // EXPECT unload question: completion
 */
