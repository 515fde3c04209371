/* ext.c — kernel_idioms' first file system: a const ops table. */
#include "../observe.h"
#include "fs.h"

static int ext_open(struct file *f)
{
	OBSERVE_TARGET();
	return f->fd;
}

static long ext_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	OBSERVE_TARGET();
	return f->fd + (long)cmd + (long)arg;
}

static long ext_compat_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	OBSERVE_TARGET();
	return ext_ioctl(f, cmd, arg) + 1;
}

const struct file_ops ext_fops = {
	.unlocked_ioctl = ext_ioctl,
	.compat_ioctl = ext_compat_ioctl,
	.open = ext_open,
};
