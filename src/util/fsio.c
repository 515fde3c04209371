/* fsio.c — see fsio.h. */
#include "util/fsio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/xalloc.h"

const char *fsio_type_name(unsigned mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "a regular file";
	case S_IFDIR: return "a directory";
	case S_IFIFO: return "a FIFO";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFSOCK: return "a socket";
	case S_IFLNK: return "a symbolic link";
	}
	return "not a regular file";
}

int fsio_open_regular(const char *path, size_t max_bytes, const char *what, facet_error *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		error_set(err, "%s: cannot read %s: %s", path, what, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		error_set(err, "%s: cannot read %s: %s", path, what, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		error_set(err, "%s: %s must be a regular file, this is %s", path, what, fsio_type_name(st.st_mode));
		close(fd);
		return -1;
	}
	if (max_bytes && (unsigned long long)st.st_size > (unsigned long long)max_bytes) {
		error_set(err, "%s: %s is larger than %zu bytes (%lld): refused", path, what, max_bytes,
		          (long long)st.st_size);
		close(fd);
		return -1;
	}
	int flags = fcntl(fd, F_GETFL);
	if (flags >= 0)
		fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	return fd;
}

bool fsio_check_regular(const char *path, size_t max_bytes, const char *what, facet_error *err)
{
	int fd = fsio_open_regular(path, max_bytes, what, err);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

bool fsio_read_fd(int fd, const char *path, size_t max_bytes, const char *what, char **text, size_t *len,
                  facet_error *err)
{
	size_t cap = 8192, n = 0;
	char *buf = xmalloc(cap + 1);
	for (;;) {
		if (n == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
		ssize_t got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			error_set(err, "%s: cannot read %s: %s", path, what, strerror(errno));
			free(buf);
			return false;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		/* The file may grow after the size check: the bound holds anyway. */
		if (max_bytes && n > max_bytes) {
			error_set(err, "%s: %s is larger than %zu bytes: refused", path, what, max_bytes);
			free(buf);
			return false;
		}
	}
	buf[n] = 0;
	*text = buf;
	*len = n;
	return true;
}

bool fsio_read_file(const char *path, size_t max_bytes, const char *what, char **text, size_t *len,
                    facet_error *err)
{
	int fd = fsio_open_regular(path, max_bytes, what, err);
	if (fd < 0)
		return false;
	bool ok = fsio_read_fd(fd, path, max_bytes, what, text, len, err);
	close(fd);
	return ok;
}
