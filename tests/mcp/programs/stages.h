/* stages.h — what stages_a.c and stages_b.c share: a table of named steps,
 * and a registry outside the program (stage_lookup is only declared). */
#ifndef STAGES_H
#define STAGES_H

struct stage {
	const char *name;
	int (*run)(int x);
};

const struct stage *stage_lookup(const char *name);
int a_leaf(int x);
int b_leaf(int x);
int a_run(int x);
int b_run(int x);

#endif
