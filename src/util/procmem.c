/* procmem.c — see procmem.h. */
#include "util/procmem.h"

#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

void procmem_kib(unsigned long long *rss, unsigned long long *peak)
{
	*rss = *peak = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long long size, resident;
	long page = sysconf(_SC_PAGESIZE);
	if (f && fscanf(f, "%llu %llu", &size, &resident) == 2 && page > 0)
		*rss = resident * (unsigned long long)page / 1024;
	if (f)
		fclose(f);
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) == 0 && ru.ru_maxrss > 0)
		*peak = (unsigned long long)ru.ru_maxrss;
	if (*peak < *rss)   /* the kernel updates its high-water mark lazily */
		*peak = *rss;
}
