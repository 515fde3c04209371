/* progress.c — the terminal progress line (progress.h). State is the one
 * command this process runs, so it is kept here, file-static. */
#include "cli/progress.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/clock.h"

static const char *command;
static double started, after = 1.0;
static bool shown, tty;

void cli_progress_start(const char *cmd)
{
	command = cmd;
	started = clock_seconds();
	tty = isatty(STDERR_FILENO) == 1;
	shown = false;
	/* FACET_PROGRESS_AFTER=SECONDS moves the one-second mark (tests use 0) */
	const char *e = getenv("FACET_PROGRESS_AFTER");
	char *end;
	double v = e ? strtod(e, &end) : 0;
	after = e && *e && !*end && v >= 0 ? v : 1.0;
}

void cli_progress(const char *phase, unsigned done, unsigned total)
{
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

void cli_progress_clear(void)
{
	if (shown)
		fputs("\r\033[K", stderr);
	shown = false;
}
