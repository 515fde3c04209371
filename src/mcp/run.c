/* run.c — facet mcp's server over the query layer (run.h). */
#include "mcp/run.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/xalloc.h"

/* The writer the sessions get; one server per process (run.h). */
static query_module_writer module_writer;

/* query.h's entry points as the server's backend. */
static void *q_open(const char *path, facet_error *err)
{
	query_session *q = query_open(path, err);
	if (q && module_writer)
		query_set_module_writer(q, module_writer);
	return q;
}

static void q_close(void *s)
{
	query_close(s);
}

static json_t *q_call(void *s, const char *verb, json_t *args, facet_error *err)
{
	return query_call(s, verb, args, err);
}

static bool q_pending(const void *s)
{
	return query_overlay_pending(s);
}

static const mcp_backend query_backend = {q_open, q_close, q_call, q_pending};

/* The catalog's directory, when it exists (loading the catalog fails later,
 * naming it, when it does not); NULL otherwise. */
static char *catalog_dir(const char *catalog)
{
	if (!catalog)
		return NULL;
	char *dir = xstrdup(catalog), *slash = strrchr(dir, '/');
	if (slash)
		slash == dir ? (void)(slash[1] = 0) : (void)(*slash = 0);
	else
		strcpy(dir, ".");
	if (access(dir, F_OK) != 0) {
		free(dir);
		dir = NULL;
	}
	return dir;
}

/* Defaults (docs/mcp.md): write in the catalog's directory, else the
 * working directory; read there and in the working directory. */
static mcp_server *server_new(const mcp_run_options *o)
{
	mcp_options opts = {.log = o->log, .verbose = o->verbose, .max_message = o->max_message};
	const char *read_dirs[64];
	unsigned n_read = 0;
	for (; n_read < o->n_read_dirs && n_read < 62; n_read++)
		read_dirs[n_read] = o->read_dirs[n_read];
	char *cat_dir = catalog_dir(o->catalog);
	if (n_read == 0) {
		read_dirs[n_read++] = ".";
		if (cat_dir)
			read_dirs[n_read++] = cat_dir;
	}
	opts.write_dir = o->write_dir ? o->write_dir : cat_dir ? cat_dir : ".";
	opts.read_dirs = read_dirs;
	opts.n_read_dirs = n_read;
	mcp_server *server = mcp_server_new(&query_backend, &opts);
	free(cat_dir);
	return server;
}

int mcp_run(const mcp_run_options *o, facet_error *err)
{
	module_writer = o->writer;
	fflush(stdout);
	int proto_fd = dup(STDOUT_FILENO);
	FILE *proto = proto_fd >= 0 ? fdopen(proto_fd, "w") : NULL;
	if (!proto || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		error_set(err, "cannot set up stdout: %s", strerror(errno));
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	mcp_server *server = server_new(o);
	if (!server) {
		error_set(err, "--write-dir or --read-dir names a directory that does not exist");
		fclose(proto);
		return 2;
	}
	if (o->catalog) {
		if (!mcp_server_load(server, o->catalog, o->overlay, err)) {
			mcp_server_free(server);
			fclose(proto);
			return 1;
		}
		if (o->verbose && o->log)
			fprintf(o->log, "facet mcp: loaded %s\n", o->catalog);
	}
	int status = mcp_serve(server, STDIN_FILENO, proto);
	mcp_server_free(server);
	if (fclose(proto) != 0)
		status = 1;
	return status ? 1 : 0;
}
