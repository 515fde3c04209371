/* record.c — atomic JSON files. */
#include "capture/record.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

bool capture_json_write_atomic(const char *path, json_t *obj, facet_error *err)
{
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
	if (json_dump_file(obj, tmp, JSON_INDENT(1) | JSON_SORT_KEYS) != 0) {
		error_set(err, "%s: cannot write (%s)", tmp, strerror(errno));
		unlink(tmp);
		return false;
	}
	if (rename(tmp, path) != 0) {
		error_set(err, "%s: cannot rename into place (%s)", path, strerror(errno));
		unlink(tmp);
		return false;
	}
	return true;
}

bool capture_record_write(const char *dir, const char *name, json_t *obj, facet_error *err)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/records/%s.json", dir, name);
	return capture_json_write_atomic(path, obj, err);
}
