/* tty.c — kernel_idioms' third table: only compat_ioctl, of the same type
 * as unlocked_ioctl. */
#include "../observe.h"
#include "fs.h"

static long tty_compat_ioctl(struct file *f, unsigned cmd, unsigned long arg)
{
	OBSERVE_TARGET();
	return f->fd * (long)cmd + (long)arg;
}

static int tty_open(struct file *f)
{
	OBSERVE_TARGET();
	return f->fd + 1;
}

const struct file_ops tty_fops = {
	.open = tty_open,
	.compat_ioctl = tty_compat_ioctl,
};
