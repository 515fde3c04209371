/* c.c — one of two external definitions of dup. */
int dup(int x) { return x; }
