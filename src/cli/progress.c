/* progress.c — the terminal progress line and the phase log (progress.h).
 * State is the one command this process runs, so it is kept here,
 * file-static. */
#include "cli/progress.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/procmem.h"

static const char *command;
static double started, after = 1.0;
static bool shown, tty, log_phases;
static char current[128];   /* the phase running, for the log's line at its end */

void cli_progress_start(const char *cmd)
{
	command = cmd;
	started = clock_seconds();
	tty = isatty(STDERR_FILENO) == 1;
	shown = false;
	current[0] = 0;
	/* FACET_PROGRESS_AFTER=SECONDS moves the one-second mark (tests use 0) */
	const char *e = getenv("FACET_PROGRESS_AFTER");
	char *end;
	double v = e ? strtod(e, &end) : 0;
	after = e && *e && !*end && v >= 0 ? v : 1.0;
	const char *l = getenv("FACET_PROGRESS_LOG");
	log_phases = l && strcmp(l, "1") == 0;
}

/* The log's line for the phase that ends now, on a line of its own. */
static void log_end(void)
{
	if (!log_phases || !command || !current[0])
		return;
	unsigned long long rss, peak;
	procmem_kib(&rss, &peak);
	cli_progress_clear();
	fprintf(stderr, "facet %s: phase %s ended at %.2f s: RSS %llu MiB, peak %llu MiB\n", command, current,
	        clock_seconds() - started, rss / 1024, peak / 1024);
	fflush(stderr);
	current[0] = 0;
}

void cli_progress(const char *phase, unsigned done, unsigned total)
{
	if (log_phases && command && strcmp(phase, current) != 0) {
		log_end();
		snprintf(current, sizeof current, "%s", phase);
	}
	if (!tty || !command || clock_seconds() - started < after)
		return;
	if (total)
		fprintf(stderr, "\rfacet %s: %s %u%% (%u/%u)\033[K", command, phase,
		        (unsigned)((unsigned long long)done * 100 / total), done, total);
	else
		fprintf(stderr, "\rfacet %s: %s...\033[K", command, phase);
	fflush(stderr);
	shown = true;
}

void cli_progress_phase(void *arg, const char *phase)
{
	(void)arg;
	cli_progress(phase, 0, 0);
}

void cli_progress_clear(void)
{
	if (shown)
		fputs("\r\033[K", stderr);
	shown = false;
}

void cli_progress_finish(void)
{
	log_end();
	cli_progress_clear();
}
