/* named.c — a program's module from a capture directory in one call
 * (extract.h): the manifest loaded, the program found by name, extracted. */
#include "capture/extract.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/xalloc.h"

bool capture_extract_named(const char *dir, const char *program, const capture_extract_options *opt,
                           const char *out, capture_messages *warnings, facet_error *err)
{
	capture_manifest *m = capture_manifest_load(dir, err);
	if (!m)
		return false;
	const capture_program *p = capture_find_program(m, program, err);
	bool ok = p && capture_extract(m, p, opt, out, warnings, err);
	capture_manifest_free(m);
	return ok;
}

char *capture_extract_temp(const char *dir, const char *program, capture_messages *warnings, facet_error *err)
{
	const char *tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/facet-capture-XXXXXX", tmpdir);
	int fd = mkstemp(path);
	if (fd < 0) {
		error_set(err, "cannot create a temporary file in %s", tmpdir);
		return NULL;
	}
	close(fd);
	capture_extract_options opt = {0};
	if (!capture_extract_named(dir, program, &opt, path, warnings, err)) {
		unlink(path);
		return NULL;
	}
	return xstrdup(path);
}
