/* pipe.c — kernel_idioms' second table: __ro_after_init, its ioctl slot
 * filled at start-up (pipe_setup), the rest by its initializer. */
#include "../observe.h"
#include "fs.h"

static long pipe_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	OBSERVE_TARGET();
	return (long)cmd - f->fd - (long)arg;
}

static int pipe_release(struct file *f)
{
	OBSERVE_TARGET();
	return -f->fd;
}

struct file_ops pipe_fops RO_AFTER_INIT = {
	.release = pipe_release,
};

void pipe_setup(void)
{
	pipe_fops.unlocked_ioctl = pipe_ioctl;
}
