/* cfg.h — no unit includes it, but it defines GEN_SELF: a name some file of
 * the tree defines is the code's own, not a switch. */
#define GEN_SELF 1
