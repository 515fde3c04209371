/* progress.c — the terminal progress line (progress.h). State is the one
 * command this process runs, so it is kept here, file-static. */
#include "cli/progress.h"

#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "util/clock.h"

static const char *command;
static double started;
static bool shown, tty;

void cli_progress_start(const char *cmd)
{
	command = cmd;
	started = clock_seconds();
	tty = isatty(STDERR_FILENO) == 1;
	shown = false;
}

void cli_progress(const char *phase, unsigned done, unsigned total)
{
	if (!tty || !command || clock_seconds() - started < 1.0)
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
