/* args.c — calls written in a macro's arguments, the arguments spanning
 * lines. clang's debug info places a call the macro's body makes at the
 * macro's use, and a call written in an argument where it is written
 * (SourceManager::getFileLoc), so each call below is on its own line. The
 * check also compiles this file with clang -g and reads every call's line
 * from the bitcode: the two must agree. */
extern int log_msg(int level, const char *fmt, ...);
extern const char *describe(int code);
extern int last_error(void);
extern int begin(void);

#define LOG(level, ...) do { if ((level) > 0) log_msg((level), __VA_ARGS__); } while (0)
#define TRY(a) if (begin() == 0) { a }
#define ERRNO (last_error())

static void on_event(int n) { (void)n; }
static void on_other(int n) { (void)n; }

void report(int n)
{
	LOG(2, "failed: %s (%d)",                  /* -> log_msg */
	    describe(ERRNO),                       /* -> describe last_error */
	    n);
	LOG(1, "plain %d", n);                     /* -> log_msg */
}

void run(int c)
{
	void (*handler)(int) = c ? on_event : on_other;
	TRY(                                       /* -> begin */
	    handler(c);                            /* -> on_event@args.c:W on_other@args.c:W */
	)
}
