/* record.c — atomic JSON files. */
#include "capture/record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/atomic.h"

/* The temporary is the writer's own (its PID in the name) and truncated if
 * a killed writer of that PID left one; O_NOFOLLOW: never through a planted
 * symlink. atomic_install then fsyncs it, renames it and fsyncs the
 * directory, so a record or manifest is whole on disk once written. No
 * directory scan for stale temporaries (atomic_open's): the wrapper writes
 * one record per compile, and records/ holds thousands. */
bool capture_json_write_atomic(const char *path, json_t *obj, facet_error *err)
{
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	bool ok = f && json_dumpf(obj, f, JSON_INDENT(1) | JSON_SORT_KEYS) == 0 && fflush(f) == 0 && !ferror(f);
	int saved = errno;
	if ((f ? fclose(f) : fd >= 0 ? close(fd) : 0) != 0 && ok) {
		ok = false;
		saved = errno;
	}
	if (!ok) {
		error_set(err, "%s: cannot write (%s)", tmp, strerror(saved));
		unlink(tmp);
		return false;
	}
	return atomic_install(tmp, path, &(atomic_target){.what = "the record"}, err);
}

bool capture_record_write(const char *dir, const char *name, json_t *obj, facet_error *err)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/records/%s.json", dir, name);
	return capture_json_write_atomic(path, obj, err);
}
