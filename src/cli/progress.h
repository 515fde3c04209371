/* progress.h — the progress line a long command shows on a terminal:
 * "facet CMD: PHASE 35% (120/340)" rewritten in place on stderr, only when
 * stderr is a terminal and the command has run for over a second, and
 * cleared before any other output (cli_error and friends clear it). Never
 * on a pipe or a file. FACET_PROGRESS_AFTER=SECONDS in the environment
 * moves the one-second mark.
 *
 * FACET_PROGRESS_LOG=1 in the environment also logs each phase's end as it
 * happens, on a line of its own on any stderr (a file too):
 * "facet build: phase points-to analysis ended at 812.40 s: RSS 9318 MiB,
 * peak 10557 MiB" (seconds since the command started; RSS now and the
 * process's peak so far), so a run stopped from outside says how far it got
 * and what each phase held. */
#ifndef FACET_CLI_PROGRESS_H
#define FACET_CLI_PROGRESS_H

/* Starts timing cmd (call once at the start of the command). */
void cli_progress_start(const char *cmd);
/* The current phase ("points-to analysis"); total 0 = no percentage. */
void cli_progress(const char *phase, unsigned done, unsigned total);
/* cli_progress(phase, 0, 0) in the form the libraries' progress hooks take
 * (ingest_options, pta_options, catalog_build_hooks); arg is unused. */
void cli_progress_phase(void *arg, const char *phase);
/* Clears the line (before the command's own messages and at its end). */
void cli_progress_clear(void);
/* The command's end: logs the last phase's end (FACET_PROGRESS_LOG) and clears the line. */
void cli_progress_finish(void);

#endif
