/* registry.h — the interface between the two files of cross_tu: a registry
 * of named text transforms (registry.c) used by main.c. */
#ifndef REGISTRY_H
#define REGISTRY_H

typedef int (*transform_fn)(char *buf, int len);

/* Adds FN under NAME; returns -1 when the registry is full. */
int registry_add(const char *name, transform_fn fn);
/* Applies every registered transform in order; returns the final length. */
int registry_apply_all(char *buf, int len);
/* The transform registered under NAME, or the registry's own default. */
transform_fn registry_find(const char *name);

#endif
