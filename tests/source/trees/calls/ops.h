/* ops.h — the tables the calls tree dispatches through. */
#ifndef OPS_H
#define OPS_H
struct conn;
typedef int (*read_fn)(struct conn *, int);
struct ops {
	read_fn read;
	int (*write)(struct conn *, int);
	void (*close)(struct conn *);
};
struct inner { void (*fire)(int); };
struct outer { int tag; struct inner in; };
struct conn {
	const struct ops *ops;
	void (*on_event)(int);
	union { void (*as_int)(int); void (*as_other)(int); };   /* anonymous union: one location */
	void (*never)(void);
};
int shared(int x);
int dup(int x);
void reg(struct conn *c, void (*cb)(int));
#define CLOSE(c) (c)->ops->close(c)
#define LOG(x) log_line(x)
void log_line(const char *s);
#endif
