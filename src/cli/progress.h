/* progress.h — the progress line a long command shows on a terminal:
 * "facet CMD: PHASE 35% (120/340)" rewritten in place on stderr, only when
 * stderr is a terminal and the command has run for over a second, and
 * cleared before any other output (cli_error and friends clear it). Never
 * on a pipe or a file. FACET_PROGRESS_AFTER=SECONDS in the environment
 * moves the one-second mark. */
#ifndef FACET_CLI_PROGRESS_H
#define FACET_CLI_PROGRESS_H

/* Starts timing cmd (call once at the start of the command). */
void cli_progress_start(const char *cmd);
/* The current phase ("points-to analysis"); total 0 = no percentage. */
void cli_progress(const char *phase, unsigned done, unsigned total);
/* Clears the line (before the command's own messages and at its end). */
void cli_progress_clear(void);

#endif
