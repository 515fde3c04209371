/* procmem.h — how much memory this process holds, for the phase log. */
#ifndef FACET_UTIL_PROCMEM_H
#define FACET_UTIL_PROCMEM_H

/* Resident and peak resident memory in KiB (0 when unknown): statm's second
 * field in pages, getrusage's maximum (KiB on Linux); the peak is never
 * below the resident size. */
void procmem_kib(unsigned long long *rss, unsigned long long *peak);

#endif
