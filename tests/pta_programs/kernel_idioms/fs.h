/* fs.h — kernel_idioms: an ops table in the style of a kernel's
 * file_operations, filled with designated initializers in three units
 * (ext.c, pipe.c, tty.c) and dispatched in a fourth (main.c). Two fields
 * share one type (unlocked_ioctl, compat_ioctl): a function stored only in
 * one of them must not reach the other's call. */
#ifndef KERNEL_IDIOMS_FS_H
#define KERNEL_IDIOMS_FS_H

struct file;

struct file_ops {
	int (*open)(struct file *f);
	long (*unlocked_ioctl)(struct file *f, unsigned cmd, unsigned long arg);
	long (*compat_ioctl)(struct file *f, unsigned cmd, unsigned long arg);
	int (*release)(struct file *f);
};

struct file {
	const struct file_ops *f_op;
	int fd;
};

/* A kernel's __ro_after_init: written during start-up only. */
#define RO_AFTER_INIT __attribute__((section(".data..ro_after_init")))

extern const struct file_ops ext_fops;
extern struct file_ops pipe_fops;
extern const struct file_ops tty_fops;
void pipe_setup(void);

#endif
