/* d.c — the other definition of dup (another program of the tree). */
int dup(int x) { return -x; }
